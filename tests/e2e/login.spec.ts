import { expect, test } from "@playwright/test";
import { operator, signedIn } from "./support/dashboard";

const email = process.env.SLUICE_ADMIN_EMAIL ?? "admin@sluice.test";
const password = process.env.SLUICE_ADMIN_PASSWORD ?? "test-admin-password";

test("an anonymous visitor is sent to the login page", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole("heading", { name: "Sign in to Sluice" })).toBeVisible();
});

test("a wrong password is refused with a message", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  // Next's route announcer is also role=alert: pick ours by its text.
  await expect(page.getByRole("alert").filter({ hasText: "do not match" })).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

test("the seeded operator logs in, sees the shell, and signs out", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toContainText(`${email} · operator`);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await page.screenshot({ path: ".data/screenshots/shell.png", fullPage: true });
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
});

test("before the page is live, Enter in the form cannot send the password in a URL", async ({ browser }) => {
  // without JavaScript the page stays as the server drew it, i.e. before hydration
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeDisabled();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByLabel("Password").press("Enter");
  await page.waitForLoadState();
  expect(page.url()).not.toContain("password");
  await context.close();
});

test("before the page is live, password forms and the YAML editor take no input", async ({ browser }) => {
  const live = await signedIn(browser, operator);
  const context = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await live.context().storageState(),
  });
  const page = await context.newPage();
  await page.goto("/account");
  await expect(page.getByRole("button", { name: "Change password" })).toBeDisabled();
  await page.goto("/tenants/acme/config");
  await expect(page.locator("#yaml")).not.toBeEditable();
  await expect(page.getByRole("button", { name: "Preview changes" })).toBeDisabled();
  await context.close();
  await live.context().close();
});
