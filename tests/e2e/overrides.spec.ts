import { expect, test, type Page } from "@playwright/test";
import { createOverride, endOverride } from "./support/admin-api";
import { check, operator, query, signedIn, uniqueSlug, viewer } from "./support/dashboard";

// Temporary overrides from the dashboard: create one on the tenant page (refused with the
// field named when the reason or the duration is wrong), see it with its countdown, checks
// decided under it, an upcoming one on the operators' list, and end it early; the Limits
// tab's live numbers and the limit tree read the limit in force, with its badge. Screenshots:
// tests/e2e/screenshots/overrides-light.png, overrides-dark.png, overrides-phone.png.

test.describe.configure({ mode: "serial" });

let page: Page;
const slug = uniqueSlug("e2e-ovr");
const bootstrap = process.env.SLUICE_BOOTSTRAP_TOKEN ?? "test-bootstrap-token-000000000000";

test.beforeAll(async ({ browser }) => {
  page = await signedIn(browser, operator);
  const response = await page.request.put("/api/admin/config", {
    headers: { authorization: `Bearer ${bootstrap}`, "content-type": "application/json" },
    data: {
      tenants: [
        {
          slug,
          name: `E2E ${slug}`,
          plan: "free",
          limits: [{ name: "e2e-few", by: "tenant", algorithm: "fixed_window", limit: 5, window: "1h" }],
        },
      ],
    },
  });
  expect(response.status()).toBe(200);
});

/** The decision's e2e-few limit, once the app enforces what `accept` wants (up to 3 s). */
async function fewLimit(accept: (limit: number | undefined) => boolean): Promise<number | undefined> {
  const started = Date.now();
  for (;;) {
    const decision = await check(page, { tenant: slug, dryRun: true });
    const limit = decision.limits.find((l) => l.name === "e2e-few")?.limit;
    if (accept(limit) || Date.now() - started > 3_000) return limit;
    await page.waitForTimeout(50);
  }
}

test("creates an override on the tenant page, refusing a missing reason and a too long one", async () => {
  await page.goto(`/tenants/${slug}`);
  const panel = page.getByTestId("overrides-panel");
  await expect(panel.getByText("No overrides in force or waiting.")).toBeVisible();
  const form = page.getByTestId("override-form");
  // each limit is named with its configured value, and the form says a burst scales with it
  await expect(
    form.getByLabel("Limit", { exact: true }).locator("option", { hasText: "e2e-few" }),
  ).toHaveText("e2e-few: 5 / 1h");
  await expect(form.getByText("a burst scales with it")).toBeVisible();
  await form.getByLabel("Limit", { exact: true }).selectOption("e2e-few");
  await form.getByLabel("New limit").fill("50");
  await form.getByLabel("Lasts").fill("100d");
  await form.getByRole("button", { name: "Create override" }).click();
  await expect(form.getByText("is required: say why").first()).toBeVisible();
  await form.getByLabel("Reason").fill("launch week");
  await form.getByRole("button", { name: "Create override" }).click();
  await expect(form.getByText("must be within 90 days from now").first()).toBeVisible();
  const before = await query<{ n: string }>(
    `select count(*)::text as n from "Override" o join "Tenant" t on t.id = o."tenantId" where t.slug = $1`,
    [slug],
  );
  expect(before[0]?.n).toBe("0");

  await form.getByLabel("Lasts").fill("1h");
  await form.getByRole("button", { name: "Create override" }).click();
  const row = panel.getByTestId("override-table").locator("tbody tr").first();
  await expect(row).toHaveAttribute("data-state", "active");
  await expect(row).toContainText("launch week");
  await expect(row.getByTestId("countdown")).toContainText(/ends in (59m|1h)/);
  expect(await fewLimit((l) => l === 50)).toBe(50);

  // an upcoming one, after the first ends
  await form.getByLabel("Limit", { exact: true }).selectOption("e2e-few");
  await form.getByLabel("New limit").fill("0");
  await form.getByLabel("Starts in").fill("2h");
  await form.getByLabel("Lasts").fill("30m");
  await form.getByLabel("Reason").fill("maintenance window");
  await form.getByRole("button", { name: "Create override" }).click();
  const upcoming = panel.locator('tr[data-state="upcoming"]');
  await expect(upcoming.getByTestId("countdown")).toContainText(/starts in 1h 59m|starts in 2h/);
  const audit = await query<{ action: string }>(
    `select action from "AuditEntry" a join "Tenant" t on t.id = a."tenantId" where t.slug = $1 and action like 'override.%'`,
    [slug],
  );
  expect(audit.map((a) => a.action)).toEqual(["override.create", "override.create"]);
});

test("screenshots: light, dark and a 390 px phone", async () => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/tenants/${slug}#overrides`);
  const panel = page.getByTestId("overrides-panel");
  await expect(panel.locator("tbody tr")).toHaveCount(2);
  await panel.screenshot({ path: "tests/e2e/screenshots/overrides-light.png" });
  await page.emulateMedia({ colorScheme: "dark" });
  await panel.screenshot({ path: "tests/e2e/screenshots/overrides-dark.png" });
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/tenants/${slug}#overrides`);
  await expect(page.getByTestId("overrides-panel").locator("tbody tr")).toHaveCount(2);
  // nothing may be wider than the phone
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.getByTestId("overrides-panel").screenshot({ path: "tests/e2e/screenshots/overrides-phone.png" });
  await page.setViewportSize({ width: 1280, height: 900 });
});

test("operators see every tenant's overrides; ending one early restores the limit at once", async () => {
  await page.goto("/overrides");
  await expect(page.getByRole("link", { name: slug })).toHaveCount(2);
  await page.goto(`/tenants/${slug}`);
  const active = page.getByTestId("overrides-panel").locator('tr[data-state="active"]');
  await active.getByRole("button", { name: "End now" }).click();
  await page.getByRole("button", { name: "End override now" }).click();
  await expect(page.getByTestId("overrides-panel").locator('tr[data-state="active"]')).toHaveCount(0);
  expect(await fewLimit((l) => l === 5)).toBe(5);
});

test("a viewer sees overrides but gets no form", async ({ browser }) => {
  const asViewer = await signedIn(browser, viewer);
  await asViewer.goto("/tenants/acme");
  await expect(asViewer.getByTestId("overrides-panel")).toBeVisible();
  await expect(asViewer.getByTestId("override-form")).toHaveCount(0);
});

test("the Limits tab and the limit tree show the limit in force with the override's badge", async () => {
  for (let i = 0; i < 2; i += 1) await check(page, { tenant: slug });
  const id = await createOverride(page, {
    tenant: slug,
    limit: "e2e-few",
    value: 40,
    endsAt: new Date(Date.now() + 30 * 60_000).toISOString(),
    reason: "live views",
  });
  await page.goto(`/tenants/${slug}`);
  const now = page.locator("#effective-limits").getByTestId("limit-e2e-few").getByTestId("now-e2e-few");
  // use measured against the 40 in force (not the configured 5), beside the badge
  await expect(now).toContainText(/\d+ \/ 40/);
  await expect(now.getByTestId("override-badge")).toHaveText(
    /override until (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC/,
  );
  // the effective rule is the one in force, the configured one struck through beside it
  const rule = page.locator("#effective-limits").getByTestId("effective-e2e-few");
  await expect(rule.locator("strong")).toHaveText(/^40 \/ 1h/);
  await expect(rule.locator("s")).toHaveText(/^5 \/ 1h/);
  const tree = page.getByTestId("limit-tree");
  await tree.scrollIntoViewIfNeeded();
  await page.getByTestId("tree-node-tenant").click();
  const details = page.getByTestId("limit-node-details");
  await expect(details.getByTestId("limit-reading").filter({ hasText: "e2e-few" })).toContainText(
    "40 per 1 h",
  );
  await expect(details.getByTestId("override-badge")).toBeVisible();
  await page.getByTestId("limit-tree").screenshot({ path: "tests/e2e/screenshots/override-in-tree.png" });
  await page.locator("#effective-limits").screenshot({ path: "tests/e2e/screenshots/override-live.png" });

  // ended: the configured limit again, without the badge (the tab polls every 5 s)
  await endOverride(page, id);
  await expect(now).toContainText(/\d+ \/ 5\b/, { timeout: 15_000 });
  await expect(now.getByTestId("override-badge")).toHaveCount(0);
  await expect(rule).toHaveCount(0);
  await expect(page.locator("#effective-limits").getByTestId("limit-e2e-few")).toContainText("5 / 1h");
});
