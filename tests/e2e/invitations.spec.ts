import { expect, test, type Browser, type Page } from "@playwright/test";
import { operator, query, screenshot, sha256, signedIn, uniqueSlug } from "./support/dashboard";

// Joining a tenant by invitation: the admin gets a one-time link (never a password), the
// invited person opens it in their own browser, sets their own password and signs in; the
// link is then spent. Changing that password keeps this session and ends the others.

test.describe.configure({ mode: "serial" });

let admin: Page;
const email = `${uniqueSlug("invitee")}@invite.test`;
const password = "my-own-chosen-password";
let link = "";

test.beforeAll(async ({ browser }) => {
  admin = await signedIn(browser, operator);
});

async function fresh(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

test("inviting shows a one-time link, stored only as a hash, and makes no account", async () => {
  await admin.goto("/tenants/acme/members");
  const form = admin.getByTestId("invite-member");
  await form.getByLabel("Email").fill(email);
  // Every role select on this page shares the id f-role, so the label cannot tell them apart.
  await form.locator("select[name=role]").selectOption("editor");
  await form.getByRole("button", { name: "Invite" }).click();
  link = (await admin.getByTestId("secret-value").textContent()) ?? "";
  expect(link).toMatch(/\/invite\/inv_[A-Za-z0-9_-]{32}$/);
  await expect(admin.locator(".secret")).not.toContainText(/password/i);
  await screenshot(admin, "members-invitation-link");
  const secret = link.slice(link.lastIndexOf("/") + 1);
  const rows = await query<{ hash: string }>(`select hash from "Invitation" where email = $1`, [email]);
  expect(rows.map((r) => r.hash)).toEqual([sha256(secret)]);
  expect(await query(`select id from "User" where email = $1`, [email])).toHaveLength(0);
  await admin.reload();
  await expect(admin.getByTestId("invitations-table")).toContainText(email);
});

test("the invited person opens the link in a fresh browser, sets a password and signs in", async ({
  browser,
}) => {
  const page = await fresh(browser);
  await page.goto(link);
  await expect(page.getByRole("heading", { name: /Join/ })).toBeVisible();
  await expect(page.getByTestId("invitation")).toContainText(email);
  const form = page.getByTestId("create-account");
  await form.getByLabel("Your name").fill("Invited Person");
  await form.getByLabel("Choose a password").fill(password);
  await form.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/login\?notice=account-ready/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toContainText(email);
  await page.goto("/tenants/acme/members");
  await expect(page.getByTestId("members-table")).toContainText(email);
  // The link is spent.
  const again = await fresh(browser);
  await again.goto(link);
  await expect(again.getByText(/not valid/)).toBeVisible();
});

test("changing the password needs the current one, keeps this session and ends the others", async ({
  browser,
}) => {
  const me = await signedIn(browser, { email, password });
  const other = await signedIn(browser, { email, password });
  await me.goto("/account");
  const form = me.getByTestId("change-password");
  await form.getByLabel("Current password").fill("not-my-password");
  await form.getByLabel("New password").fill("a-newer-password-1");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByText(/current password is not right/)).toBeVisible();
  await form.getByLabel("Current password").fill(password);
  await form.getByLabel("New password").fill("a-newer-password-1");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByText("Password changed")).toBeVisible();
  await me.goto("/tenants/acme");
  await expect(me.getByTestId("signed-in-as")).toContainText(email);
  await other.goto("/tenants/acme");
  await expect(other).toHaveURL(/\/login/);
});

test("a revoked invitation's link no longer works", async ({ browser }) => {
  const revoked = `${uniqueSlug("revoked")}@invite.test`;
  await admin.goto("/tenants/acme/members");
  const form = admin.getByTestId("invite-member");
  await form.getByLabel("Email").fill(revoked);
  await form.getByRole("button", { name: "Invite" }).click();
  const revokedLink = (await admin.getByTestId("secret-value").textContent()) ?? "";
  await admin.reload();
  const row = admin.getByTestId("invitations-table").getByRole("row", { name: new RegExp(revoked) });
  await row.getByRole("button", { name: "Revoke" }).click();
  await admin.getByRole("button", { name: "Revoke invitation" }).click();
  await expect(admin.getByTestId("invitations-table").getByText(revoked)).toHaveCount(0);
  const page = await fresh(browser);
  await page.goto(revokedLink);
  await expect(page.getByText(/not valid/)).toBeVisible();
});

test("an operator issues a reset link; its owner sets a new password; disabling ends sign-in", async ({
  browser,
}) => {
  await admin.goto("/users");
  const row = admin.getByTestId(`user-${email}`);
  await row.getByRole("button", { name: "Reset link" }).click();
  const resetLink = (await row.getByTestId("secret-value").textContent()) ?? "";
  expect(resetLink).toMatch(/\/reset\/rst_[A-Za-z0-9_-]{32}$/);
  const page = await fresh(browser);
  await page.goto(resetLink);
  await page.getByLabel("New password").fill("set-by-reset-link-1");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page).toHaveURL(/\/login\?notice=password-set/);
  const me = await signedIn(browser, { email, password: "set-by-reset-link-1" });

  await admin.reload();
  await admin.getByTestId(`user-${email}`).getByRole("button", { name: "Disable" }).click();
  await admin.getByRole("button", { name: "Disable account" }).click();
  await expect(admin.getByTestId(`user-${email}`)).toContainText("disabled");
  await me.goto("/tenants/acme");
  await expect(me).toHaveURL(/\/login/);
});
