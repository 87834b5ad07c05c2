import { expect, test, type Page } from "@playwright/test";
import { adminHeaders } from "./support/admin-api";
import { check, operator, signedIn, viewer } from "./support/dashboard";
import { threeShots } from "./support/shots";

// The configuration side of the console: /plans folds each plan to one line, the
// Limits tab shows each limit's live counter beside it, and Hottest limits stays readable
// at 390 px (the tables' sorting: console-sorting.spec.ts). Screenshots (light, dark, 390 px
// phone) go to tests/e2e/screenshots/console-config-*.png for a person to look at.

let page: Page;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser }) => {
  page = await signedIn(browser, operator);
});

const shots = (name: string): Promise<void> => threeShots(page, `console-config-${name}`);

test("/plans folds every plan to one line and stays short with many plans", async () => {
  const exported = await page.request.get("/api/admin/config", { headers: adminHeaders });
  expect(exported.status()).toBe(200);
  const doc = (await exported.json()) as { plans: { name: string; limits: unknown[] }[] };
  // ten more plans of eight limits each: the old page drew every one as a full table
  const tall = Array.from({ length: 10 }, (_, p) => ({
    name: `tall-${p}`,
    limits: Array.from({ length: 8 }, (_, l) => ({
      name: `tall-limit-${l}`,
      by: "key",
      algorithm: "fixed_window",
      limit: 10 * (l + 1),
      window: "1m",
    })),
  }));
  const put = await page.request.put("/api/admin/config", {
    headers: adminHeaders,
    data: { plans: [...doc.plans, ...tall] },
  });
  expect(put.status(), await put.text()).toBe(200);
  try {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto("/plans");
    const plans = page.locator('details[data-testid^="plan-"]');
    await expect(plans).toHaveCount(doc.plans.length + tall.length);
    await expect(page.getByTestId("plan-tall-3")).toContainText("8 limits");
    await expect(page.getByTestId("plan-tall-3").getByTestId("limit-tall-limit-0")).toBeHidden();
    const height = () => page.evaluate(() => document.documentElement.scrollHeight);
    const folded = await height();
    await shots("plans");
    // every plan opened is what the page was before: each plan a full table
    for (const plan of await plans.all()) await plan.locator("summary").click();
    await expect(page.getByTestId("plan-tall-3").getByTestId("limit-tall-limit-0")).toBeVisible();
    const unfolded = await height();
    test.info().annotations.push({
      type: "plans page height",
      description: `${folded} px folded, ${unfolded} px with every plan open (${doc.plans.length + tall.length} plans)`,
    });
    const count = doc.plans.length + tall.length;
    console.log(`/plans height: ${folded} px folded, ${unfolded} px with every plan open (${count} plans)`);
    // a line per plan (other suites may have left plans in the test database: a bound per plan)
    expect(folded).toBeLessThan(500 + 140 * count);
    expect(folded).toBeLessThan(unfolded / 2);
  } finally {
    const restored = await page.request.put("/api/admin/config", {
      headers: adminHeaders,
      data: { plans: doc.plans },
    });
    expect(restored.status()).toBe(200);
  }
});

test("the Limits tab shows each limit's live counter beside it and keeps it current", async ({ browser }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto("/tenants/acme");
  const limits = page.locator("#effective-limits");
  const rpm = limits.getByTestId("limit-tenant-rpm").getByTestId("now-tenant-rpm");
  await expect(rpm).toContainText("%");
  await expect(rpm.getByRole("meter")).toHaveAttribute("aria-valuenow", /\d+/);
  // checks on a fixed-window route limit while the page is open: its counter moves without
  // a reload (polled every 5 s)
  const reports = limits.getByTestId("limit-reports").getByTestId("now-reports");
  const used = async () =>
    Number((await reports.locator(".small").innerText()).split("/")[0]!.replace(/,/g, ""));
  // its window is the clock hour: a new hour between reading and polling would start the
  // counter again (seen at midnight), so wait out the last 20 s of an hour
  const toNextHour = 3_600_000 - (Date.now() % 3_600_000);
  if (toNextHour < 20_000) {
    test.setTimeout(test.info().timeout + toNextHour + 6_000);
    await page.waitForTimeout(toNextHour + 6_000);
  }
  const before = await used();
  for (let i = 0; i < 10; i += 1)
    await check(page, { tenant: "acme", key: "backend", route: "GET /v1/reports/daily" });
  await expect.poll(used, { timeout: 15_000 }).not.toBe(before);
  expect(await used()).toBeGreaterThanOrEqual(10);
  // a per-key limit on the tenant's rows shows its busiest key; subject limits point to the lookup
  await expect(limits.getByTestId("limit-key-rps").first()).toContainText("key ");
  await expect(limits.getByTestId("limit-ip-per-min").first()).toContainText("per subject");
  // its endpoint: signed in only, a tenant's own members only (others' tenants are "not found")
  const live = (path: string, on: Page = page) => on.request.get(`/api/live-utilization${path}`);
  expect((await live("?tenant=acme")).status()).toBe(200);
  expect((await live("")).status()).toBe(400);
  const visitor = await (await browser.newContext()).newPage();
  expect((await live("?tenant=acme", visitor)).status()).toBe(401);
  await visitor.context().close();
  const acmeViewer = await signedIn(browser, viewer);
  expect((await live("?tenant=globex", acmeViewer)).status()).toBe(404);
  expect((await live("?tenant=acme", acmeViewer)).status()).toBe(200);
  await acmeViewer.context().close();
  // the separate "Utilization now" panel is gone: the counters are beside their limits
  await expect(page.getByTestId("live-counters")).toHaveCount(0);
  await shots("limits-now");
});

test("Hottest limits' bars are readable on a 390 px phone", async () => {
  for (let i = 0; i < 20; i += 1) await check(page, { tenant: "acme", key: "backend" });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/usage/acme");
  const chart = page.getByTestId("utilization-chart");
  await expect(chart.locator("li").first()).toBeVisible({ timeout: 15_000 });
  const widths = await chart
    .locator(".hot-track")
    .evaluateAll((tracks) => tracks.map((t) => t.getBoundingClientRect().width));
  // the bar gets the panel's width (the old 260 px axis left it about 50 px)
  expect(Math.min(...widths)).toBeGreaterThan(250);
  const overflow = await chart.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  await page.setViewportSize({ width: 1280, height: 720 });
  await chart.scrollIntoViewIfNeeded();
  await shots("hottest");
});
