// The decision log and the check endpoint's health in the dashboard: a tenant's denials
// filtered by subject and decision, the CSV download of the same filter, and the health
// page's figures from the running fronts. Screenshots go to .data/screenshots/.
import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { check, operator, screenshot, signedIn, uniqueSlug } from "./support/dashboard";

const bootstrap = process.env.SLUICE_BOOTSTRAP_TOKEN ?? "test-bootstrap-token-000000000000";

// both wait on the fronts' background writes (1 s and 10 s) on a machine that may be busy
test.describe.configure({ timeout: 120_000 });

test("the decision log filters a tenant's decisions and downloads them as CSV", async ({ browser }) => {
  const slug = uniqueSlug("e2e-dlog");
  const page = await signedIn(browser, operator);
  const response = await page.request.put("/api/admin/config", {
    headers: { authorization: `Bearer ${bootstrap}` },
    data: {
      tenants: [
        {
          slug,
          plan: "free",
          limits: [{ name: "per-ip", by: "subject", algorithm: "fixed_window", limit: 2, window: "1h" }],
        },
      ],
    },
  });
  expect(response.status()).toBe(200);
  // the new config reaches the check servers within about a second
  await expect.poll(async () => (await check(page, { tenant: slug, dryRun: true })).reason).toBe("ok");
  const subject = "198.51.100.90";
  for (let i = 0; i < 4; i++) await check(page, { tenant: slug, subject });
  await check(page, { tenant: slug, subject: "198.51.100.91" });

  await page.goto(`/tenants/${slug}`);
  await page.getByRole("link", { name: "Decisions" }).click();
  await expect(page).toHaveURL(new RegExp(`/tenants/${slug}/decisions`), { timeout: 30_000 });
  const filters = page.getByRole("form", { name: "Filter decisions" });
  await filters.getByLabel("Subject").fill(subject);
  await filters.getByLabel("Decision").selectOption("rejected");
  const table = page.getByRole("table", { name: "decision log" });
  // the sample is flushed once a second: filter again until both denials are there
  await expect
    .poll(
      async () => {
        await filters.getByRole("button", { name: "Filter" }).click();
        await page.waitForURL(/outcome=rejected/);
        return table.getByRole("row").count();
      },
      { timeout: 60_000 },
    )
    .toBe(3);
  await expect(table).toContainText("per-ip");
  await expect(table).not.toContainText("198.51.100.91");
  await expect(table).not.toContainText("allowed");
  await expect(page.getByTestId("log-summary")).toContainText("2 shown of 2 matching");
  await screenshot(page, "decision-log-light");

  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(new RegExp(`^decisions-${slug}-.*\\.csv$`));
  const csv = await readFile((await download.path()) ?? "", "utf8");
  const lines = csv.trimEnd().split("\r\n");
  expect(lines[0]).toBe("at,key,route,subject,outcome,reason,denied_by");
  expect(lines.slice(1)).toHaveLength(2);
  for (const line of lines.slice(1)) expect(line).toMatch(/,198\.51\.100\.90,rejected,rate_limited,per-ip$/);
});

test("the check health page shows the fronts' latency and counts", async ({ browser }) => {
  const page = await signedIn(browser, operator);
  for (let i = 0; i < 10; i++) await check(page, { tenant: "acme", dryRun: true });
  await page.goto("/");
  await page.getByRole("link", { name: "Check health" }).click();
  await expect(page.getByRole("heading", { name: "Check endpoint health" })).toBeVisible();
  // each front publishes every 10 s
  await expect
    .poll(
      async () => {
        await page.reload();
        return Number(
          (
            await page
              .getByTestId("health-requests")
              .textContent({ timeout: 1_000 })
              .catch(() => "0")
          )?.replace(/,/g, ""),
        );
      },
      { timeout: 60_000 },
    )
    .toBeGreaterThanOrEqual(10);
  await expect(page.getByTestId("health-p50")).toContainText("ms");
  await expect(page.getByTestId("health-p99")).toContainText("ms");
  await expect(page.getByRole("table", { name: "check health per minute" })).toBeVisible();
  await screenshot(page, "check-health-light");
});
