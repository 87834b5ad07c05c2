import { expect, test } from "@playwright/test";
import { adminHeaders, firstPlan } from "./support/admin-api";
import { operator, signedIn, uniqueSlug, viewer } from "./support/dashboard";

// The console's long lists and the header search in the browser: the tenants list searched
// and paged on the server (the address keeps the state), a page past the end shown as the
// last, a bad sort named, and the header search finding a key for an operator but nothing of
// another tenant for acme's viewer.

const prefix = uniqueSlug("pg");
const COUNT = 27;

test.beforeAll(async ({ browser }, info) => {
  // one import of 27 tenants: tens of seconds on a loaded machine
  info.setTimeout(120_000);
  const page = await signedIn(browser, operator, 30_000);
  const plan = await firstPlan(page);
  const tenants = Array.from({ length: COUNT }, (_, i) => ({
    slug: `${prefix}-${String(i).padStart(2, "0")}`,
    name: `Paged ${String(i).padStart(2, "0")}`,
    plan,
  }));
  const put = await page.request.put("/api/admin/config", { headers: adminHeaders, data: { tenants } });
  expect(put.status(), await put.text()).toBe(200);
  const key = await page.request.post(`/api/admin/tenants/${prefix}-05/keys`, {
    headers: adminHeaders,
    data: { name: `${prefix}-key` },
  });
  expect(key.status()).toBe(201);
  await page.context().close();
});

test("the tenants list searches and pages on the server", async ({ browser }) => {
  // a dozen page loads: past the default 30 s on a loaded machine
  test.setTimeout(120_000);
  const page = await signedIn(browser, operator, 30_000);
  await page.goto("/?size=25");
  await page.getByTestId("tenant-search").fill(prefix);
  await page.getByTestId("tenant-filters").getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`q=${prefix}`));
  const table = page.getByTestId("tenants-table");
  await expect(page.getByTestId("pager-status")).toHaveText(`Page 1 of 2 · ${COUNT} tenants`);
  await expect(table.locator("tbody tr")).toHaveCount(25);
  await page.getByTestId("pager-next").click();
  await expect(page.getByTestId("pager-status")).toHaveText(`Page 2 of 2 · ${COUNT} tenants`);
  await expect(table.locator("tbody tr")).toHaveCount(2);
  await expect(table).toContainText(`${prefix}-26`);
  // sorting by a header keeps the search, and goes back to page 1
  await page.getByTestId("sort-tenant").click();
  await expect(page.getByTestId("pager-status")).toHaveText(`Page 1 of 2 · ${COUNT} tenants`);
  await expect(table.locator("tbody tr").first()).toContainText(`${prefix}-26`);
  await expect(table.getByRole("columnheader", { name: /Tenant/ })).toHaveAttribute(
    "aria-sort",
    "descending",
  );
  // hostile addresses: a page past the end is the last; a bad sort is named, the default shown
  await page.goto(`/?q=${prefix}&size=25&page=999999999999`);
  await expect(page.getByTestId("pager-status")).toHaveText(`Page 2 of 2 · ${COUNT} tenants`);
  await page.goto(`/?q=${prefix}&sort=password`);
  await expect(page.getByTestId("list-param-error")).toContainText("sort must be one of tenant");
  await expect(page.getByTestId("tenants-table").locator("tbody tr")).toHaveCount(COUNT);
  await page.context().close();
});

test("a tenant's keys list searches, filters by state and pages on the server", async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await signedIn(browser, operator, 30_000);
  const tenant = `${prefix}-07`;
  for (let i = 0; i < 27; i++) {
    const made = await page.request.post(`/api/admin/tenants/${tenant}/keys`, {
      headers: adminHeaders,
      data: { name: `many-${String(i).padStart(2, "0")}` },
    });
    expect(made.status()).toBe(201);
  }
  const revoked = await page.request.delete(`/api/admin/tenants/${tenant}/keys/many-03`, {
    headers: adminHeaders,
  });
  expect(revoked.status()).toBeLessThan(300);
  await page.goto(`/tenants/${tenant}/keys?size=25`);
  const table = page.getByTestId("keys-table");
  await expect(page.getByTestId("pager-status")).toHaveText("Page 1 of 2 · 27 keys");
  await expect(table.locator("tbody tr")).toHaveCount(25);
  await page.getByTestId("pager-next").click();
  await expect(table.locator("tbody tr")).toHaveCount(2);
  await expect(table).toContainText("many-26");
  // a search keeps the size and starts at page 1; the state filter narrows it
  await page.getByTestId("key-search").fill("many-1");
  await page.getByTestId("key-filters").getByRole("button", { name: "Find" }).click();
  await expect(page.getByTestId("pager-status")).toHaveText("Page 1 of 1 · 10 keys");
  await expect(page.getByTestId("keys-filter-status")).toContainText("10 of 27 keys match");
  await page.goto(`/tenants/${tenant}/keys?state=revoked`);
  await expect(table.locator("tbody tr")).toHaveCount(1);
  await expect(table).toContainText("many-03");
  // sorting by a traffic column is on the server too; a bad parameter is named
  await page.getByTestId("sort-checks").click();
  await expect(page).toHaveURL(/sort=checks&dir=desc/);
  await page.goto(`/tenants/${tenant}/keys?state=lost`);
  await expect(page.getByTestId("list-param-error")).toContainText(
    "state must be one of active, expired, revoked",
  );
  await expect(page.getByTestId("pager-status")).toHaveText("Page 1 of 1 · 27 keys");
  await page.context().close();
});

test("the header search finds a key for an operator, and nothing of another tenant for a viewer", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const page = await signedIn(browser, operator, 30_000);
  await page.goto("/");
  await page.getByTestId("global-search").fill(`${prefix}-key`);
  await page.getByTestId("global-search").press("Enter");
  await expect(page.getByTestId("search-keys")).toContainText(`${prefix}-05`);
  await page
    .getByTestId("search-keys")
    .getByRole("link", { name: `${prefix}-key` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/tenants/${prefix}-05/keys\\?q=`));
  await expect(page.getByTestId(`key-${prefix}-key`)).toBeVisible();
  await page.context().close();

  const member = await signedIn(browser, viewer, 30_000);
  await member.goto(`/search?q=${prefix}`);
  await expect(member.getByTestId("search-results")).toContainText("No tenant matches.");
  await expect(member.getByTestId("search-results")).toContainText("No key matches.");
  await member.goto("/search?q=acme");
  await expect(member.getByTestId("search-tenants")).toContainText("acme");
  await expect(member.getByTestId("search-subjects")).not.toContainText(prefix);
  await member.context().close();
});
