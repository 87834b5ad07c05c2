import { expect, test, type Page } from "@playwright/test";
import { Redis } from "ioredis";
import { check, operator, query, signedIn } from "./support/dashboard";

// What the ops console must show: degraded decisions visible, drill-down and
// headings that say what is shown, rejection rate on long ranges, the phone layout, the
// editor's defaults and routes, the 404 page and the favicon. Screenshots in light, dark
// and at 390 px go to .data/test-results/screenshots/ (looked at by a person, not diffed).

const SHOTS = ".data/test-results/screenshots";
const PAGES = [
  { name: "overview", path: "/" },
  { name: "tenant-limits", path: "/tenants/acme" },
  { name: "usage", path: "/usage/acme" },
];

/** Degraded decisions cannot be caused from here (Redis must be away): write them as the recorder would. */
async function recordDegraded(count: number): Promise<void> {
  const [tenant] = await query<{ id: string }>(`select id from "Tenant" where slug = 'acme'`);
  if (!tenant) throw new Error("no acme tenant");
  const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:63799", { protocol: 2 });
  try {
    const prefix = process.env.REDIS_PREFIX ?? "";
    const now = Date.now();
    const key = `${prefix}{u:${tenant.id}}:s:${Math.floor(now / 60_000)}`;
    await redis.hincrby(key, `${Math.floor(now / 1_000) % 60}|||d`, count);
    await redis.expire(key, 7_200);
  } finally {
    redis.disconnect();
  }
}

async function traffic(page: Page): Promise<void> {
  // a burst on the 5/s search route (some rejected), a route no pattern matches, degraded
  await expect(async () => {
    const sent = await Promise.all(
      Array.from({ length: 25 }, () =>
        check(page, { tenant: "acme", key: "backend", route: "POST /v1/search", subject: "198.51.100.4" }),
      ),
    );
    expect(sent.some((d) => !d.allowed)).toBe(true);
  }).toPass({ timeout: 20_000 });
  await check(page, { tenant: "acme", key: "backend", route: "GET /nowhere/at-all" });
  await recordDegraded(10);
}

// One sign-in for the file (the login limits count every attempt); themes and widths are
// switched on the same page.
let page: Page;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser }) => {
  // the first sign-in after the apps start can be slow on a loaded machine
  page = await signedIn(browser, operator, 20_000);
});

async function themed(options: { colorScheme: "light" | "dark"; width?: number }): Promise<Page> {
  await page.emulateMedia({ colorScheme: options.colorScheme });
  await page.setViewportSize({ width: options.width ?? 1280, height: options.width ? 844 : 720 });
  return page;
}

/** Waits until the usage page's live data shows the traffic (the recorder flushes each second). */
async function usageReady(page: Page): Promise<void> {
  await expect(page.getByTestId("live-status")).toContainText(/[1-9]\d* degraded/, { timeout: 15_000 });
  await expect(page.getByTestId("traffic-chart").locator(".recharts-area-area").first()).toHaveAttribute(
    "d",
    /L/,
  );
}

test("degraded decisions, drill-down headings, unmatched routes and long ranges on the usage pages", async () => {
  await themed({ colorScheme: "light" });
  await traffic(page);

  await page.goto("/usage/acme");
  await expect(page).toHaveTitle(/^Usage of acme · Sluice$/);
  await usageReady(page);
  await expect(page.getByTestId("degraded-banner")).toContainText("degraded decisions");
  await expect(page.getByTestId("hottest-note")).toContainText("current snapshot");
  await expect(page.getByTestId("offenders-note")).toContainText("whole tenant");
  await expect(page.getByRole("link", { name: "(unmatched route)" })).toBeVisible({ timeout: 10_000 });
  // tables sort by any column
  const rejected = page
    .locator("table.usage-table")
    .first()
    .getByRole("columnheader", { name: /Rejected/ });
  await rejected.getByRole("button").click();
  await expect(rejected).toHaveAttribute("aria-sort", "descending");
  await rejected.getByRole("button").click();
  await expect(rejected).toHaveAttribute("aria-sort", "ascending");

  // drill-down: the heading, the title and the side panels say what is filtered
  await page.goto(`/usage/acme?key=backend&route=${encodeURIComponent("POST /v1/search")}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Usage of acme · key backend · route POST /v1/search",
  );
  await expect(page).toHaveTitle(/key backend · route POST \/v1\/search/);
  await expect(page.getByTestId("offenders-note")).toContainText("of key backend on route POST /v1/search");
  await expect(page.getByTestId("hottest-note")).toContainText(
    "only limits that apply to this key and route",
  );
  // the offenders of this key on this route: the subject of the burst above
  await expect(page.getByTestId("offenders")).toContainText("198.51.100.4", { timeout: 10_000 });
  // the limits of this key and route drawn over its traffic, and utilization per limit
  // (a horizontal line has no height, which Playwright calls hidden: check it is drawn instead)
  await expect(
    page.getByTestId("traffic-chart").locator(".recharts-reference-line-line").first(),
  ).toHaveAttribute("x2", /\d/);
  await expect(
    page.getByTestId("limit-utilization-chart").locator(".recharts-line-curve").first(),
  ).toHaveAttribute("d", /\d/);
  await page.screenshot({ path: `${SHOTS}/usage-drilldown-light.png`, fullPage: true });

  // 7 d: one busy hour is a point between gaps, drawn as a dot (or a line when hours touch)
  await page.goto("/usage/acme?range=7d");
  await expect(page.getByTestId("live-status")).toContainText("rejected");
  const rate = page.getByTestId("rejection-rate-chart");
  await expect(async () => {
    const dots = await rate.getByTestId("rate-dot").count();
    const d = (await rate.locator(".recharts-line-curve").getAttribute("d")) ?? "";
    expect(dots > 0 || /L/.test(d)).toBe(true);
  }).toPass({ timeout: 10_000 });
  await expect(page.getByTestId("traffic-chart").getByText("filling")).toBeVisible();

  // 24 h: the axis has dates
  await page.goto("/usage/acme?range=24h");
  // the chart draws after hydration: read its ticks once it has some
  await expect(async () => {
    const ticks = await page
      .getByTestId("traffic-chart")
      .locator(".recharts-cartesian-axis-tick-value")
      .allTextContents();
    expect(ticks.join(" ")).toMatch(/[A-Z][a-z]{2} \d{1,2}/);
  }).toPass({ timeout: 10_000 });
});

test("overview, tenant and usage pages in light, dark and at 390 px", async () => {
  // nine pages with live charts, and the overview's banner waits for a rollup (about 2 min)
  test.setTimeout(300_000);
  const light = await themed({ colorScheme: "light" });
  await traffic(light);
  for (const { name, path } of PAGES) {
    // the overview counts what the rollup has stored (the minute the degraded checks were
    // written in, once it has ended and been rolled up): reloaded until it shows
    await expect(async () => {
      await light.goto(path);
      await expect(light.getByTestId("degraded-banner")).toBeVisible({ timeout: 5_000 });
    }).toPass({ timeout: name === "overview" ? 150_000 : 10_000 });
    if (name === "usage") await usageReady(light);
    await light.screenshot({ path: `${SHOTS}/${name}-light.png`, fullPage: true });
  }
  const lightGrid = await light
    .locator(".recharts-cartesian-grid line")
    .first()
    .evaluate((l) => getComputedStyle(l).stroke);

  const dark = await themed({ colorScheme: "dark" });
  for (const { name, path } of PAGES) {
    await dark.goto(path);
    if (name === "usage") await usageReady(dark);
    await dark.screenshot({ path: `${SHOTS}/${name}-dark.png`, fullPage: true });
  }
  // the chart grid follows the theme
  const darkGrid = await dark
    .locator(".recharts-cartesian-grid line")
    .first()
    .evaluate((l) => getComputedStyle(l).stroke);
  expect(darkGrid).not.toBe(lightGrid);
  expect(darkGrid).toBe("rgb(42, 49, 60)");

  const phone = await themed({ colorScheme: "light", width: 390 });
  for (const { name, path } of PAGES) {
    await phone.goto(path);
    if (name === "usage") await usageReady(phone);
    // nothing wider than the screen: tables scroll inside their panels, charts fit
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} is wider than 390 px`).toBeLessThanOrEqual(0);
    await phone.screenshot({ path: `${SHOTS}/${name}-phone.png`, fullPage: true });
  }
  // the header menu folds behind a button; Sign out is reachable on screen
  const signOut = phone.getByRole("button", { name: "Sign out" });
  await expect(signOut).toBeHidden();
  await phone.getByRole("button", { name: "Menu" }).click();
  await expect(signOut).toBeInViewport();
  await phone.screenshot({ path: `${SHOTS}/menu-phone.png` });
  await phone.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Usage" }).click();
  await expect(phone).toHaveURL(/\/usage$/);
  await expect(signOut).toBeHidden();
});

test("the limit editor names defaults and offers declared routes; 404 and favicon", async () => {
  await themed({ colorScheme: "light" });
  await page.goto("/tenants/acme/limits/edit?at=tenant");
  await expect(page.getByLabel("When over").locator("option").first()).toHaveText("default (reject)");
  await expect(page.getByLabel("Mode").locator("option").first()).toHaveText("default (enforce)");
  await expect(page.getByLabel("If Redis is unreachable").locator("option").first()).toHaveText(
    "default (open)",
  );
  const routes = page.getByLabel("Only on route");
  await expect(routes.locator("option")).toContainText([
    "every route",
    "GET /v1/items/:id",
    "POST /v1/search",
  ]);
  // the burst chart: one time unit, named, and a per-step unit on the other axis
  const editor = page.getByTestId("limit-editor");
  await editor.getByRole("textbox", { name: "Limit", exact: true }).fill("10");
  await editor.getByRole("textbox", { name: "Window" }).fill("1100ms");
  await editor.getByText("Fixed window", { exact: true }).click();
  const burst = page.locator(".burst-chart");
  await expect(burst).toContainText("time since the burst began (s)");
  await expect(burst).toContainText(/requests per 0\.11 s/);
  await page.screenshot({ path: `${SHOTS}/limit-editor-light.png`, fullPage: true });
  // Save confirms and brings the changed row into view
  const name = `console-${Date.now().toString(36)}`;
  await editor.getByLabel("Name").fill(name);
  await editor.getByLabel("Counted per").selectOption("tenant");
  await editor.getByRole("textbox", { name: "Limit", exact: true }).fill("100000");
  await editor.getByRole("textbox", { name: "Window" }).fill("1s");
  await page.getByRole("button", { name: "Save limit" }).click();
  await expect(page).toHaveURL(new RegExp(`/tenants/acme\\?saved=${name}`));
  await expect(page.getByTestId("saved-notice")).toContainText(name);
  await expect(page.getByTestId(`limit-${name}`)).toBeInViewport();
  // global routes the tenant only inherits are folded to one line each
  await expect(page.locator("details.route-group:not([open])").first()).toBeVisible();
  await page.getByTestId(`limit-${name}`).getByRole("button", { name: "Delete" }).click();
  await page.getByRole("button", { name: "Delete limit" }).click();
  await expect(page.getByTestId(`limit-${name}`)).toHaveCount(0);

  const missing = await page.goto("/no/such/page");
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to the dashboard" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();

  const icon = await page.request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toMatch(/image/);
});
