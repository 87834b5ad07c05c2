import { expect, test, type Page } from "@playwright/test";
import { Redis } from "ioredis";
import { check, operator, query, signedIn, viewer } from "./support/dashboard";

// What an operator needs of usage: traffic per key on the keys page, the overview's "most limited"
// across tenants (strictly the viewer's tenants), a custom or dragged time range on the
// usage charts, and top offenders of one key or route. Screenshots in light, dark and at
// 390 px: tests/e2e/screenshots/console-{keys,overview,usage-zoom,offenders}-{light,dark,phone}.png.

const SHOTS = "tests/e2e/screenshots";
const SUBJECT = "198.51.100.61";
const GLOBEX_SUBJECT = "203.0.113.250";
const SEARCH = "POST /v1/search";

/** A burst on acme's 5/s search route with one subject, until some checks are rejected. */
async function traffic(page: Page): Promise<void> {
  await expect(async () => {
    const sent = await Promise.all(
      Array.from({ length: 25 }, () =>
        check(page, { tenant: "acme", key: "backend", route: SEARCH, subject: SUBJECT }),
      ),
    );
    expect(sent.some((d) => !d.allowed)).toBe(true);
  }).toPass({ timeout: 20_000 });
}

/**
 * Rejections of globex's ingest key, written as the recorder writes them: globex's limits are
 * far above what a test should send. The viewer (acme only) must never see them.
 */
async function globexRejections(): Promise<void> {
  const [row] = await query<{ tenant: string; key: string }>(
    `select t.id as tenant, k.id as key from "Tenant" t join "ApiKey" k on k."tenantId" = t.id
     where t.slug = 'globex' and k.name = 'ingest'`,
  );
  if (!row) throw new Error("no globex ingest key");
  const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:63799", { protocol: 2 });
  try {
    const prefix = process.env.REDIS_PREFIX ?? "";
    const now = Date.now();
    const minute = Math.floor(now / 60_000);
    const tag = `${prefix}{u:${row.tenant}}`;
    await redis.hincrby(
      `${tag}:s:${minute}`,
      `${Math.floor(now / 1_000) % 60}|${row.key}|POST /v1/ingest|r`,
      500,
    );
    await redis.zincrby(`${tag}:o:${minute}`, 500, `s:${GLOBEX_SUBJECT}`);
    // named in the minute's index, as the recorder does, so the rollup stores them: past 50
    // tenants (other specs make many) "most limited" reads the tenants that rejected most
    // in what the rollup stored
    await redis.sadd(`${prefix}{u:idx}:m:${minute}`, row.tenant);
    for (const key of [`${tag}:s:${minute}`, `${tag}:o:${minute}`]) await redis.expire(key, 7_200);
  } finally {
    redis.disconnect();
  }
}

let page: Page;
test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser }) => {
  page = await signedIn(browser, operator);
  await traffic(page);
  await globexRejections();
});

async function shots(name: string, path: string, ready: (p: Page) => Promise<void>): Promise<void> {
  for (const [scheme, width] of [
    ["light", 1280],
    ["dark", 1280],
    ["phone", 390],
  ] as const) {
    await page.emulateMedia({ colorScheme: scheme === "dark" ? "dark" : "light" });
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.goto(path);
    await ready(page);
    if (width === 390) {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} is wider than 390 px`).toBeLessThanOrEqual(0);
    }
    await page.screenshot({ path: `${SHOTS}/console-${name}-${scheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("the keys page shows traffic per key over a range, linking to the key's usage", async () => {
  await page.goto("/tenants/acme/keys");
  const row = page.getByTestId("key-backend");
  await expect(async () => {
    await page.reload();
    await expect(row.getByTestId("key-rejected-backend")).not.toHaveText("0", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(row.getByTestId("key-rate-backend")).toHaveText(/\d+(\.\d)?%/);
  await expect(row.getByTestId("sparkline").locator("path")).toHaveAttribute("d", /L/);
  // another range is a link away, and the numbers follow it
  await page.getByRole("navigation", { name: "Time range" }).getByRole("link", { name: "24 h" }).click();
  await expect(page).toHaveURL(/\/tenants\/acme\/keys\?range=24h$/);
  await expect(row.getByTestId("key-rejected-backend")).not.toHaveText("0");
  await row.getByTestId("key-checks-backend").click();
  await expect(page).toHaveURL(/\/usage\/acme\?key=backend&range=24h$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Usage of acme · key backend");
  await shots("keys", "/tenants/acme/keys", async (p) => {
    await expect(p.getByTestId("key-backend").getByTestId("sparkline")).toBeVisible();
  });
});

test("the overview lists the most limited keys, routes and subjects, sortable, each linking on", async () => {
  // three themes of screenshots with live charts: more than 30 s on a loaded machine
  test.setTimeout(240_000);
  const table = page.getByTestId("most-limited");
  // the overview ranks tenants by what the rollup has stored: reloaded until acme's minute and
  // globex's (written after acme's traffic, so possibly a minute later) are both in
  await expect(async () => {
    await page.goto("/");
    await expect(table.getByTestId("limited-key-acme-backend")).toBeVisible({ timeout: 5_000 });
    // subjects are ranked across every tenant, and other specs' subjects may outnumber acme's
    // few: globex's 500 lead
    await expect(table.getByTestId(`limited-subject-globex-${GLOBEX_SUBJECT}`)).toBeVisible({
      timeout: 1_000,
    });
  }).toPass({ timeout: 150_000 });
  await expect(table.getByTestId(`limited-route-acme-${SEARCH}`)).toBeVisible();
  // an operator sees every tenant's
  await expect(table.getByTestId("limited-key-globex-ingest")).toContainText("500");
  const rate = table.getByRole("columnheader", { name: /Rejection rate/ });
  await rate.getByRole("button").click();
  await expect(rate).toHaveAttribute("aria-sort", "descending");
  const rates = await table.locator("tbody tr td:nth-child(5)").allTextContents();
  const numbers = rates.filter((r) => r !== "–").map((r) => Number.parseFloat(r));
  expect(numbers).toEqual([...numbers].sort((x, y) => y - x));
  const count = table.getByRole("columnheader", { name: /Rejected/ });
  await count.getByRole("button").click();
  await expect(count).toHaveAttribute("aria-sort", "descending");
  await shots("overview", "/", async (p) => {
    await expect(p.getByTestId("most-limited")).toBeVisible();
  });
  // a route leads to its drill-down, a subject to the identifier lookup
  await page.goto("/?range=1h");
  await page.getByTestId(`limited-route-acme-${SEARCH}`).getByRole("link").click();
  await expect(page).toHaveURL(/\/usage\/acme\?route=POST\+%2Fv1%2Fsearch&range=1h$/);
  await page.goto("/");
  await page.getByTestId(`limited-subject-globex-${GLOBEX_SUBJECT}`).getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/tenants/globex/lookup\\?subject=${GLOBEX_SUBJECT}$`));
});

test("a tenant member sees only their own tenants in the most limited list", async ({ browser }) => {
  const member = await signedIn(browser, viewer);
  await member.goto("/");
  const table = member.getByTestId("most-limited");
  await expect(table.getByTestId("limited-key-acme-backend")).toBeVisible();
  const tenants = await table.locator("tbody tr td:nth-child(3)").allTextContents();
  expect(new Set(tenants)).toEqual(new Set(["acme"]));
  await expect(table).not.toContainText("ingest");
  await expect(table).not.toContainText(GLOBEX_SUBJECT);
  await member.context().close();
});

test("the usage charts take a custom range: dragged on the chart, typed, validated, reset", async () => {
  await page.goto("/usage/acme?range=1h");
  const chart = page.getByTestId("traffic-chart");
  await expect(chart.locator(".recharts-area-area").first()).toHaveAttribute("d", /L/);
  const box = await chart.getByRole("application").boundingBox();
  if (!box) throw new Error("no chart");
  const y = box.y + box.height / 2;
  // the last part of the hour up to the plot's right edge (16 px margin), where the burst is
  await page.mouse.move(box.x + box.width * 0.7, y);
  await page.mouse.move(box.x + box.width * 0.75, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width - 18, y, { steps: 8 });
  await expect(chart.locator(".recharts-reference-area")).not.toHaveCount(0);
  await page.mouse.up();
  await expect(page).toHaveURL(/range=1h&from=[^&]+Z&to=[^&]+Z$/);
  const url = new URL(page.url());
  const span = Date.parse(url.searchParams.get("to") ?? "") - Date.parse(url.searchParams.get("from") ?? "");
  expect(span).toBeGreaterThan(0);
  expect(span).toBeLessThan(3_600_000);
  await expect(page.getByTestId("custom-range-label")).toBeVisible();
  // the zoomed view still holds the burst, at a finer step
  await expect(page.getByTestId("live-status")).toContainText(/[1-9]\d* checks/);
  await expect(page.getByTestId("resolution")).toHaveText("resolution: 5 s");
  await expect(page.getByRole("navigation", { name: "Time range" }).locator("[aria-current]")).toHaveCount(0);
  await shots("usage-zoom", url.pathname + url.search, async (p) => {
    await expect(p.getByTestId("custom-range-label")).toBeVisible();
  });
  // reset: back to the preset range, from/to gone
  await page.goto(url.pathname + url.search);
  await page.getByTestId("reset-range").click();
  await expect(page).toHaveURL(/\/usage\/acme\?range=1h$/);

  // typed: to before from is refused, naming the field, and the preset range shows instead
  const form = page.getByTestId("custom-range");
  await form.getByLabel("From").fill("2026-01-02T10:00");
  await form.getByLabel("To").fill("2026-01-01T10:00");
  await form.getByRole("button", { name: "Apply range" }).click();
  await expect(page.getByTestId("range-error")).toHaveText(
    "Custom range not applied: from must be before to.",
  );
  await expect(page.getByTestId("live-status")).toContainText("checks");
  // the live endpoint checks the same way
  const bad = await page.request.get(
    "/api/usage-live?tenant=acme&from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z",
  );
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { error: { message: string } }).error.message).toBe(
    "from: must be at most 31 days before to",
  );
  const missing = await page.request.get("/api/usage-live?tenant=acme&from=2026-01-01T00:00:00Z");
  expect(((await missing.json()) as { error: { message: string } }).error.message).toBe(
    "to: is missing (from is set)",
  );
});

test("top offenders follow the drill-down's key and route", async () => {
  await page.goto("/usage/acme?key=backend");
  await expect(page.getByTestId("offenders-note")).toContainText("only rejections of key backend");
  const offenders = page.getByTestId("offenders");
  await expect(offenders).toContainText(SUBJECT);
  await expect(offenders).not.toContainText(GLOBEX_SUBJECT);
  await page.goto(`/usage/acme?route=${encodeURIComponent(SEARCH)}`);
  await expect(page.getByTestId("offenders-note")).toContainText(`only rejections on route ${SEARCH}`);
  await expect(offenders).toContainText(SUBJECT);
  await expect(offenders).toContainText("backend");
  // a route nobody was rejected on has no offenders, though the tenant has some
  await page.goto(`/usage/acme?route=${encodeURIComponent("GET /nowhere")}`);
  await expect(page.getByText("Nobody was rejected in this range.")).toBeVisible();
  await shots("offenders", `/usage/acme?key=backend&route=${encodeURIComponent(SEARCH)}`, async (p) => {
    await expect(p.getByTestId("offenders")).toContainText(SUBJECT);
  });
});
