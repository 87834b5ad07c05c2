// The ops tools in the dashboard, on the seeded demo: the request simulator, identifier
// lookup (with a reset), configuration history (with a rollback) and located YAML errors.
// Screenshots (light, dark, 390 px phone) go to .data/screenshots/ops-*.png.
import { expect, test, type Page } from "@playwright/test";
import { check, operator, screenshot, signedIn, uniqueSlug } from "./support/dashboard";

const bootstrap = process.env.SLUICE_BOOTSTRAP_TOKEN ?? "test-bootstrap-token-000000000000";

async function shots(page: Page, name: string): Promise<void> {
  await screenshot(page, `ops-${name}-light`);
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, `ops-${name}-dark`);
  await page.emulateMedia({ colorScheme: "light" });
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, `ops-${name}-phone`);
  // the tool's panel and its tables fit the phone: nothing to scroll sideways
  const overflow = await page.evaluate(() =>
    Math.max(
      ...[...document.querySelectorAll(".panel, .table-scroll, .diff")].map(
        (el) => el.scrollWidth - el.clientWidth,
      ),
    ),
  );
  expect(overflow).toBeLessThanOrEqual(1);
  if (size) await page.setViewportSize(size);
}

async function putTenant(page: Page, slug: string, limit: number): Promise<void> {
  const response = await page.request.put("/api/admin/config", {
    headers: { authorization: `Bearer ${bootstrap}` },
    data: {
      tenants: [
        {
          slug,
          plan: "free",
          limits: [{ name: "hist-rpm", by: "tenant", algorithm: "fixed_window", limit, window: "1m" }],
        },
      ],
    },
  });
  expect(response.status()).toBe(200);
}

test("the simulator shows every limit of a key on a route, where it comes from and the verdict", async ({
  browser,
}) => {
  const page = await signedIn(browser, operator);
  await page.goto("/tenants/acme");
  // the Limits tab shows each limit's live counter beside it (one limiter read for the page)
  await expect(page.getByTestId("now-tenant-rpm").first()).toContainText("%");
  await screenshot(page, "ops-limits-live-light");
  await page.getByRole("link", { name: "Simulator" }).click();
  await page.getByLabel("API key").selectOption("backend");
  await page.getByLabel("Route").fill("GET /v1/items/42");
  await page.getByLabel("Subject", { exact: true }).fill("203.0.113.50");
  await page.getByRole("button", { name: "Simulate" }).click();
  await expect(page.getByTestId("verdict")).toContainText("Allowed");
  await expect(page.getByTestId("verdict")).toContainText("GET /v1/items/:id");
  const table = page.getByTestId("simulation");
  for (const name of ["item-reads", "key-rps", "tenant-rpm", "ip-per-min"])
    await expect(table).toContainText(name);
  await expect(table).toContainText("key backend");
  await expect(table).toContainText("plan free");
  await shots(page, "simulator");
  // a cost over a capacity: denied, and the deciding limit named
  await page.getByLabel("Cost").fill("500");
  await page.getByRole("button", { name: "Simulate" }).click();
  await expect(page.getByTestId("verdict")).toContainText("Denied");
});

test("the simulator shows a temporary override in force beside the limit's value", async ({ browser }) => {
  const slug = uniqueSlug("e2e-sim-ovr");
  const page = await signedIn(browser, operator);
  await putTenant(page, slug, 10);
  const auth = { authorization: `Bearer ${bootstrap}` };
  const endsAt = new Date(Date.now() + 3_600_000);
  const created = await page.request.post("/api/admin/overrides", {
    headers: auth,
    data: { tenant: slug, limit: "hist-rpm", value: 50, endsAt: endsAt.toISOString(), reason: "e2e" },
  });
  expect(created.status()).toBe(201);
  await page.goto(`/tenants/${slug}/simulate?go=1`);
  const row = page.getByTestId("simulation").getByRole("row").filter({ hasText: "hist-rpm" });
  // the value in force (50, not the configured 10), and the badge (with the date past midnight UTC)
  await expect(row).toContainText("50 / 1m");
  const hhmm = endsAt.toISOString().slice(11, 16);
  await expect(row.getByTestId("override-badge")).toHaveText(
    new RegExp(`^override until (\\d{4}-\\d{2}-\\d{2} )?${hhmm} UTC$`),
  );
});

test("identifier lookup shows a subject's counters and denials, and resets them", async ({ browser }) => {
  const slug = uniqueSlug("e2e-look");
  const page = await signedIn(browser, operator);
  const response = await page.request.put("/api/admin/config", {
    headers: { authorization: `Bearer ${bootstrap}` },
    data: {
      tenants: [
        {
          slug,
          plan: "free",
          limits: [{ name: "per-ip", by: "subject", algorithm: "fixed_window", limit: 3, window: "1h" }],
        },
      ],
    },
  });
  expect(response.status()).toBe(200);
  const subject = "198.51.100.77";
  // the new config reaches the check servers within about a second
  await expect.poll(async () => (await check(page, { tenant: slug, dryRun: true })).reason).toBe("ok");
  let denied = 0;
  for (let i = 0; i < 5; i++) if (!(await check(page, { tenant: slug, subject })).allowed) denied++;
  expect(denied).toBe(2);
  const lookup = page.getByTestId("lookup");
  // the sample is flushed once a second
  await expect
    .poll(async () => {
      await page.goto(`/tenants/${slug}/lookup?subject=${subject}`);
      return lookup.getByRole("table", { name: "recent denials" }).count();
    })
    .toBe(1);
  await expect(lookup.getByRole("table", { name: "recent denials" })).toContainText("per-ip");
  await expect(lookup.getByRole("table", { name: "Live counters" })).toContainText("3 / 3 used");
  await shots(page, "lookup");
  const row = lookup.getByRole("row").filter({ hasText: "per-ip" }).first();
  await row.getByRole("button", { name: "Reset" }).click();
  await page.getByRole("button", { name: "Reset per-ip" }).click();
  await expect(lookup.getByRole("table", { name: "Live counters" })).toContainText("0 / 3 used");
});

test("configuration history shows who changed what, and rolls back to an earlier version", async ({
  browser,
}) => {
  const slug = uniqueSlug("e2e-hist");
  const page = await signedIn(browser, operator);
  await putTenant(page, slug, 10);
  await putTenant(page, slug, 25);
  await page.goto(`/tenants/${slug}/history`);
  const versions = page.getByRole("list", { name: "Config versions" }).locator(":scope > li");
  await expect(versions).toHaveCount(2);
  await expect(versions.first()).toContainText("tenant.update");
  await expect(versions.first().getByTestId("yaml-diff")).toContainText("limit: 25");
  await shots(page, "history");
  await versions.nth(1).getByRole("button", { name: "Roll back to this" }).click();
  await versions
    .nth(1)
    .getByRole("button", { name: /Restore version/ })
    .click();
  await expect(versions).toHaveCount(3);
  await expect(versions.first()).toContainText("config.rollback");
  await page.goto(`/tenants/${slug}/config`);
  await expect(page.locator("#yaml")).toContainText("limit: 10");
  // the installation's history lists it too, with a rollback of the whole for operators
  await page.goto("/config/history");
  await expect(
    page.getByRole("list", { name: "Config versions" }).locator(":scope > li").first(),
  ).toContainText("config.rollback");
});

test("YAML errors are located and highlighted in the editor", async ({ browser }) => {
  // the page loads on a 10x slower CPU: on a loaded CI machine that can take a while
  test.setTimeout(150_000);
  const slug = uniqueSlug("e2e-yaml");
  const page = await signedIn(browser, operator);
  await putTenant(page, slug, 10);
  // a slow CPU and no wait for the page's scripts: typing must wait for the editor to be
  // live, or hydration resets its text and the typed text ends up doubled
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 10 });
  await page.goto(`/tenants/${slug}/config`, { waitUntil: "commit" });
  const editor = page.locator("#yaml");
  const edited = (await editor.inputValue()).replace("limit: 10", "limit: -3");
  await editor.fill(edited, { timeout: 100_000 });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  expect(await editor.inputValue()).toBe(edited);
  await page.getByRole("button", { name: "Preview changes" }).click();
  const location = page.getByTestId("error-location").first();
  await expect(location).toContainText(/line \d+, column \d+/);
  const line = Number(/line (\d+)/.exec((await location.textContent()) ?? "")?.[1]);
  const selected = await editor.evaluate((el: HTMLTextAreaElement) =>
    el.value.slice(el.selectionStart, el.selectionEnd),
  );
  expect(selected).toContain("-3");
  expect((await editor.inputValue()).split("\n")[line - 1]).toContain("-3");
  await screenshot(page, "ops-yaml-errors-light");
});
