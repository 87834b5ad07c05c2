import { mkdirSync } from "node:fs";
import { expect, test, type Browser, type Locator, type Page } from "@playwright/test";
import { check, operator, signedIn, uniqueSlug, viewer } from "./support/dashboard";

// Issue 15, the configuration side of the console: every table sorts by its headers (mouse
// and keyboard, aria-sort, ties keep their order), /plans folds each plan to one line, the
// Limits tab shows each limit's live counter beside it, and Hottest limits stays readable
// at 390 px. Screenshots (light, dark, 390 px phone) go to
// tests/e2e/screenshots/console-config-*.png for a person to look at.

const SHOTS = "tests/e2e/screenshots";
const bootstrap = process.env.SLUICE_BOOTSTRAP_TOKEN ?? "test-bootstrap-token-000000000000";
const admin = { authorization: `Bearer ${bootstrap}` };

let page: Page;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  page = await signedIn(browser, operator);
});

async function shots(name: string): Promise<void> {
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  await page.emulateMedia({ colorScheme: "light" });
  await page.screenshot({ path: `${SHOTS}/console-config-${name}-light.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: `${SHOTS}/console-config-${name}-dark.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/console-config-${name}-phone.png`, fullPage: true });
  await page.setViewportSize(size);
}

/** The texts of one column (by its header's label) of a table, top to bottom. */
async function column(table: Locator, label: string): Promise<string[]> {
  const headers = await table.locator(":scope > thead th").allTextContents();
  const index = headers.findIndex((h) => h.replace(/[▲▼↕]/g, "").trim() === label);
  expect(index, `column ${label} in ${headers.join(" | ")}`).toBeGreaterThanOrEqual(0);
  return table.locator(`:scope > tbody > tr > :nth-child(${index + 1})`).allInnerTexts();
}

const header = (table: Locator, label: string) =>
  table.locator(":scope > thead th").filter({ has: page.getByRole("button", { name: label, exact: false }) });

const byText = (a: string, b: string) => a.localeCompare(b);

/** Clicks a text column's header twice: A to Z, then Z to A, aria-sort saying which. */
async function sortsAsText(table: Locator, label: string): Promise<void> {
  const th = header(table, label);
  await expect(th).toHaveAttribute("aria-sort", "none");
  const before = await column(table, label);
  expect(before.length, `${label}: rows to sort`).toBeGreaterThan(1);
  await th.getByRole("button").click();
  await expect(th).toHaveAttribute("aria-sort", "ascending");
  expect(await column(table, label)).toEqual([...before].sort(byText));
  await th.getByRole("button").click();
  await expect(th).toHaveAttribute("aria-sort", "descending");
  expect(await column(table, label)).toEqual([...before].sort(byText).reverse());
}

/** A second member of acme (the seed has one), joined by invitation as a person would. */
async function secondMember(browser: Browser): Promise<void> {
  await page.goto("/tenants/acme/members");
  const form = page.getByTestId("invite-member");
  await form.getByLabel("Email").fill(`${uniqueSlug("sorter")}@invite.test`);
  await form.getByRole("button", { name: "Invite" }).click();
  const link = (await page.getByTestId("secret-value").textContent()) ?? "";
  const invited = await (await browser.newContext()).newPage();
  await invited.goto(link);
  const join = invited.getByTestId("create-account");
  await join.getByLabel("Your name").fill("Aaron Sorter");
  await join.getByLabel("Choose a password").fill("a-sorter-password");
  await join.getByRole("button", { name: "Create account" }).click();
  await expect(invited).toHaveURL(/\/login\?notice=account-ready/);
  await invited.context().close();
  // and two invitations left pending, for the invitations table
  for (const who of ["zz-pending", "aa-pending"]) {
    await page.goto("/tenants/acme/members");
    await form.getByLabel("Email").fill(`${uniqueSlug(who)}@invite.test`);
    await form.getByRole("button", { name: "Invite" }).click();
    await expect(page.getByTestId("secret-value")).toBeVisible();
  }
}

test("every configuration table sorts by its headers, by mouse and by keyboard", async ({ browser }) => {
  await secondMember(browser);
  // two service tokens, so the tokens table has something to order
  for (const name of ["zeta-sorter", "alpha-sorter"]) {
    const made = await page.request.post("/api/admin/service-tokens", { headers: admin, data: { name } });
    expect(made.status()).toBe(201);
  }
  const tables: [string, string, string][] = [
    ["/", "tenants-table", "Tenant"],
    ["/tenants/acme/keys", "keys-table", "Name"],
    ["/tenants/acme/routes", "tenant-routes-table", "Pattern"],
    ["/tenants/acme/members", "members-table", "Member"],
    ["/tenants/acme/members", "invitations-table", "Invited"],
    ["/users", "users-table", "Account"],
    ["/tokens", "tokens-table", "Name"],
    ["/audit", "audit-table", "Who"],
  ];
  for (const [path, testId, label] of tables) {
    await page.goto(path);
    await sortsAsText(page.getByTestId(testId), label);
  }

  // numbers sort high to low first; the audit's newest-first order reversed is oldest first
  await page.goto("/audit");
  const audit = page.getByTestId("audit-table");
  const versions = (await column(audit, "Version")).map((v) => (v === "—" ? 0 : Number(v)));
  await header(audit, "Version").getByRole("button").click();
  await expect(header(audit, "Version")).toHaveAttribute("aria-sort", "descending");
  const sortedVersions = (await column(audit, "Version")).map((v) => (v === "—" ? 0 : Number(v)));
  expect(sortedVersions).toEqual([...versions].sort((a, b) => b - a));

  // ties keep the server's order (stable): tenants on the same plan stay in list order
  await page.goto("/");
  const tenants = page.getByTestId("tenants-table");
  const listed = await column(tenants, "Tenant");
  const plans = await column(tenants, "Plan");
  expect(new Set(plans).size).toBeLessThan(plans.length); // some plan is shared: a tie to keep
  const planOf = new Map(listed.map((t, i) => [t, plans[i]!]));
  // keyboard: the header is a button; Enter sorts, Space reverses
  await header(tenants, "Plan").getByRole("button").focus();
  await page.keyboard.press("Enter");
  await expect(header(tenants, "Plan")).toHaveAttribute("aria-sort", "ascending");
  const expected = [...listed].sort((a, b) => byText(planOf.get(a)!, planOf.get(b)!));
  expect(await column(tenants, "Tenant")).toEqual(expected);
  await page.keyboard.press("Space");
  await expect(header(tenants, "Plan")).toHaveAttribute("aria-sort", "descending");
  const reversed = [...listed].sort((a, b) => byText(planOf.get(b)!, planOf.get(a)!));
  expect(await column(tenants, "Tenant")).toEqual(reversed);

  // a plan's limits sort too (by name; by rule = rate, highest first)
  await page.goto("/plans");
  await page.getByTestId("plan-free").locator("summary").click();
  const free = page.getByTestId("plan-free").locator("table");
  await sortsAsText(free, "Limit");
  await header(free, "Rule").getByRole("button").click();
  expect(await column(free, "Limit")).toEqual(["tenant-rpm", "key-rps", "ip-per-min"]);

  await page.goto("/tenants/acme/keys");
  await header(page.getByTestId("keys-table"), "Name").getByRole("button").click();
  await shots("sorting");
});

test("/plans folds every plan to one line and stays short with many plans", async () => {
  const exported = await page.request.get("/api/admin/config", { headers: admin });
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
    headers: admin,
    data: { plans: [...doc.plans, ...tall] },
  });
  expect(put.status(), await put.text()).toBe(200);
  try {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto("/plans");
    const plans = page.locator('[data-testid^="plan-"]');
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
      description: `${folded} px folded, ${unfolded} px with every plan open (12 plans)`,
    });
    console.log(`/plans height: ${folded} px folded, ${unfolded} px with every plan open`);
    expect(folded).toBeLessThan(2_200);
    expect(folded).toBeLessThan(unfolded / 2);
  } finally {
    const restored = await page.request.put("/api/admin/config", {
      headers: admin,
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
