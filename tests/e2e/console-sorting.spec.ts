import { expect, test, type Browser, type Locator, type Page } from "@playwright/test";
import { adminHeaders } from "./support/admin-api";
import { operator, signedIn, uniqueSlug } from "./support/dashboard";
import { threeShots } from "./support/shots";

// The configuration side of the console: every table sorts by its headers (mouse
// and keyboard, aria-sort, ties keep their order). Screenshots (light, dark, 390 px phone)
// go to tests/e2e/screenshots/console-config-sorting-*.png for a person to look at. The
// rest of that side is in console-config.spec.ts.

let page: Page;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser }) => {
  page = await signedIn(browser, operator);
});

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
    const made = await page.request.post("/api/admin/service-tokens", {
      headers: adminHeaders,
      data: { name },
    });
    expect(made.status()).toBe(201);
  }
  const tables: [string, string, string][] = [
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

  // the tenants list sorts on the server: a header is a link (Enter follows it)
  await page.goto("/");
  const tenants = page.getByTestId("tenants-table");
  const plan = tenants.getByRole("columnheader", { name: "Plan" });
  await plan.getByRole("link").focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/sort=plan&dir=asc/);
  await expect(plan).toHaveAttribute("aria-sort", "ascending");
  const plans = await column(tenants, "Plan");
  expect(plans).toEqual([...plans].sort(byText));
  await plan.getByRole("link").click();
  await expect(plan).toHaveAttribute("aria-sort", "descending");
  const reversed = await column(tenants, "Plan");
  expect(reversed).toEqual([...reversed].sort((a, b) => byText(b, a)));

  // so does a tenant's keys list (by name A to Z unless asked)
  await page.goto("/tenants/acme/keys");
  const keys = page.getByTestId("keys-table");
  const name = keys.getByRole("columnheader", { name: "Name" });
  await expect(name).toHaveAttribute("aria-sort", "ascending");
  const names = await column(keys, "Name");
  expect(names).toEqual([...names].sort(byText));
  await name.getByRole("link").click();
  await expect(page).toHaveURL(/sort=name&dir=desc/);
  await expect(name).toHaveAttribute("aria-sort", "descending");
  expect(await column(keys, "Name")).toEqual([...names].sort(byText).reverse());

  // a plan's limits sort too (by name; by rule = rate, highest first)
  await page.goto("/plans");
  await page.getByTestId("plan-free").locator("summary").click();
  const free = page.getByTestId("plan-free").locator("table");
  await sortsAsText(free, "Limit");
  await header(free, "Rule").getByRole("button").click();
  expect(await column(free, "Limit")).toEqual(["tenant-rpm", "key-rps", "ip-per-min"]);

  await page.goto("/tenants/acme/keys?sort=name&dir=desc");
  await threeShots(page, "console-config-sorting");
});
