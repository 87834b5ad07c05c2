// The time zone setting: a user picks a zone in "Your account", and the charts' axes and the
// console's dates are then shown in it, naming it. The operator's zone is put back after.
import { expect, test } from "@playwright/test";
import { operator, query, screenshot, signedIn } from "./support/dashboard";

test.afterAll(async () => {
  await query(`update "User" set "timeZone" = 'UTC' where email = $1`, [operator.email]);
});

test("a chosen time zone titles the chart axes and formats dates", async ({ browser }) => {
  const page = await signedIn(browser, operator);
  await page.goto("/account");
  await expect(page.getByTestId("current-time-zone")).toContainText("shown in UTC");
  const form = page.getByTestId("time-zone");
  await form.getByLabel("Time zone").selectOption("Asia/Tokyo");
  await form.getByRole("button", { name: "Save time zone" }).click();
  await expect(form.getByRole("status")).toContainText("now shown in Asia/Tokyo");
  await expect(page.getByTestId("current-time-zone")).toContainText("shown in Asia/Tokyo");

  await page.goto("/usage/acme?range=24h");
  const traffic = page.getByTestId("traffic-chart");
  // the 24 h usage of acme, after every other e2e file's traffic, renders slowly on a loaded
  // machine (a full run once took more than the default 10 s): wait as usage.spec.ts does
  await expect(traffic.getByText("time (Asia/Tokyo)")).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId("live-updated")).toContainText("Asia/Tokyo");
  await screenshot(page, "usage-time-zone");

  // server-rendered dates: the keys' creation dates, in Tokyo time and named so
  await page.goto("/tenants/acme/keys");
  await expect(page.getByTestId("keys-table")).toContainText(/\d{4}-\d\d-\d\d \d\d:\d\d GMT\+9/);

  // the configuration history and the audit log, to the second; an entry's fields unfold
  await page.goto("/config/history");
  await expect(page.getByRole("list", { name: "Config versions" })).toContainText(
    /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d GMT\+9/,
  );
  await page.goto("/audit");
  const audit = page.getByTestId("audit-table");
  await expect(audit).toContainText(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d GMT\+9/);
  await audit.locator("summary").first().click();
  await expect(audit.getByTestId("field-diff").first()).toBeVisible();
});
