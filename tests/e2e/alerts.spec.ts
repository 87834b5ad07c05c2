import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { verifySignature } from "../../lib/control/alerts/signature";
import { operator, signedIn, uniqueSlug } from "./support/dashboard";

// Near-limit alerts from the dashboard: an operator adds a webhook endpoint (a receiver in
// this test process, on loopback, so "Allow private networks") and a rejection-rate rule on
// the Alerts tab, sends checks that get rejected, and sees the signed message arrive and the
// delivery logged. Screenshots (light, dark, 390 px) go to tests/e2e/screenshots/alerts-*.png.

const SHOTS = "tests/e2e/screenshots";
const bootstrap = process.env.SLUICE_BOOTSTRAP_TOKEN ?? "test-bootstrap-token-000000000000";
const slug = uniqueSlug("alerts");
const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
let server: Server;
let hookUrl = "";

test.setTimeout(120_000);

test.beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sluice`;
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function reject(page: Page): Promise<void> {
  // a 1-per-hour limit: the first check passes, the rest are rejected
  for (let i = 0; i < 6; i++) {
    const response = await page.request.post("/api/check", {
      headers: { authorization: `Bearer ${bootstrap}` },
      data: { tenant: slug },
    });
    expect(response.status()).toBe(200);
  }
}

test("an alert rule made in the dashboard fires a signed webhook and logs it", async ({ browser }) => {
  const page = await signedIn(browser, operator);
  const imported = await page.request.put("/api/admin/config", {
    headers: { authorization: `Bearer ${bootstrap}` },
    data: {
      tenants: [
        {
          slug,
          name: "Alerts e2e",
          plan: "free",
          limits: [{ name: "tiny", by: "tenant", algorithm: "fixed_window", limit: 1, window: "1h" }],
        },
      ],
    },
  });
  expect(imported.status()).toBe(200);
  await page.goto(`/tenants/${slug}/alerts`);
  await expect(page.getByRole("link", { name: "Alerts" })).toHaveAttribute("aria-current", "page");

  const endpointForm = page.getByTestId("create-alert-endpoint");
  await endpointForm.getByLabel("Name").fill("receiver");
  // a bad target is refused under its field, and nothing is added
  await endpointForm.getByLabel("URL").fill("ftp://hooks.example.com/x");
  await endpointForm.getByRole("button", { name: "Add endpoint" }).click();
  await expect(endpointForm.locator("#f-url-error")).toContainText("must start with http:// or https://");
  await endpointForm.getByLabel("URL").fill(hookUrl);
  await endpointForm.getByLabel("Allow private networks (operator)").selectOption("yes");
  await endpointForm.getByRole("button", { name: "Add endpoint" }).click();
  const secret = (await endpointForm.getByTestId("secret-value").textContent()) ?? "";
  expect(secret).toMatch(/^whsec_/);
  await expect(page.getByTestId("endpoint-receiver")).toContainText("active");

  const ruleForm = page.getByTestId("create-alert-rule");
  await ruleForm.getByLabel("Name").fill("rejections");
  await ruleForm.getByLabel("When").selectOption("rejection_rate");
  await ruleForm.getByLabel("Send to").selectOption("receiver");
  await ruleForm.getByLabel("Above (%)").fill("10");
  await ruleForm.getByLabel("For (seconds)").fill("60");
  await ruleForm.getByRole("button", { name: "Create rule" }).click();
  await expect(ruleForm.getByRole("status")).toContainText("Rule rejections created.");
  await expect(page.getByTestId("rule-rejections")).toContainText("rejection rate above 10% over 60 s");

  // the new tenant reaches the check servers within about a second
  await expect
    .poll(async () => {
      const r = await page.request.post("/api/check", {
        headers: { authorization: `Bearer ${bootstrap}` },
        data: { tenant: slug, dryRun: true },
      });
      return ((await r.json()) as { reason: string }).reason;
    })
    .not.toBe("unknown_tenant");
  await reject(page);

  await expect.poll(() => received.length, { timeout: 60_000 }).toBeGreaterThan(0);
  const message = received[0];
  expect(message?.headers["x-sluice-event"]).toBe("firing");
  expect(verifySignature(secret, String(message?.headers["x-sluice-signature"]), message?.body ?? "")).toBe(
    true,
  );
  expect(JSON.parse(message?.body ?? "{}")).toMatchObject({
    event: "firing",
    tenant: slug,
    rule: { name: "rejections" },
  });

  await expect(page.getByTestId("delivery-rejections-firing")).toContainText("delivered", {
    timeout: 30_000,
  });
  await expect(page.getByTestId("delivery-rejections-firing")).toContainText("204");
  await expect(page.getByTestId("rule-rejections")).toContainText("firing");

  await page.emulateMedia({ colorScheme: "light" });
  await page.screenshot({ path: `${SHOTS}/alerts-light.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: `${SHOTS}/alerts-dark.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId("delivery-rejections-firing")).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "the Alerts tab is wider than 390 px").toBeLessThanOrEqual(0);
  await page.screenshot({ path: `${SHOTS}/alerts-390.png`, fullPage: true });
});
