import { expect, test, type Page } from "@playwright/test";
import { operator, query, screenshot, signedIn, viewer } from "./support/dashboard";

// A viewer of acme sees but cannot change: no controls, and the server refuses the action
// when it is sent anyway. Another tenant's pages answer 404 as if they did not exist.

test.describe.configure({ mode: "serial" });

let viewerPage: Page;
let operatorPage: Page;

test.beforeAll(async ({ browser }) => {
  viewerPage = await signedIn(browser, viewer);
  operatorPage = await signedIn(browser, operator);
});

test("a viewer sees acme's limits and keys without any control to change them", async () => {
  await viewerPage.goto("/tenants/acme");
  await expect(viewerPage.getByTestId("limit-tenant-rpm")).toContainText("overridden here");
  await expect(viewerPage.getByRole("link", { name: "Add a tenant limit" })).toHaveCount(0);
  await expect(viewerPage.getByRole("link", { name: "Edit" })).toHaveCount(0);
  await expect(viewerPage.getByRole("link", { name: "Override" })).toHaveCount(0);
  await screenshot(viewerPage, "viewer-tenant");
  await viewerPage.goto("/tenants/acme/keys");
  await expect(viewerPage.getByTestId("keys-table")).toBeVisible();
  await expect(viewerPage.getByRole("button", { name: "Revoke" })).toHaveCount(0);
  await expect(viewerPage.getByTestId("create-key")).toHaveCount(0);
  await expect(viewerPage.getByRole("link", { name: "Tokens" })).toHaveCount(0);
  expect((await viewerPage.goto("/tenants/acme/limits/edit?at=tenant"))?.status()).toBe(404);
  expect((await viewerPage.goto("/tenants/acme/tokens"))?.status()).toBe(404);
});

test("the server refuses a viewer's create-key action sent directly", async () => {
  // Learn the action's id and wire format from the operator's own form submission.
  await operatorPage.goto("/tenants/acme/keys");
  const form = operatorPage.getByTestId("create-key");
  await form.getByLabel("Name").fill("x");
  const requestPromise = operatorPage.waitForRequest(
    (r) => r.method() === "POST" && !!r.headers()["next-action"],
  );
  await form.getByLabel("Name").fill("bad name!");
  await form.getByRole("button", { name: "Create key" }).click();
  const captured = await requestPromise;
  const actionId = captured.headers()["next-action"] ?? "";
  expect(actionId).not.toBe("");
  await expect(form.getByText(/must be 1 to 63/)).toBeVisible();

  const before = await query(`select count(*)::int as n from "ApiKey"`);
  const response = await viewerPage.request.post("/tenants/acme/keys", {
    headers: {
      "next-action": actionId,
      "content-type": "text/plain;charset=UTF-8",
      accept: "text/x-component",
      origin: new URL(viewerPage.url()).origin,
    },
    data: JSON.stringify([{ tenant: "acme", name: "viewer-sneak" }]),
  });
  const text = await response.text();
  expect(text).toContain('"ok":false');
  expect(text).toContain('"status":403');
  const after = await query(`select count(*)::int as n from "ApiKey"`);
  expect(after).toEqual(before);
  expect(await query(`select 1 from "ApiKey" where name = 'viewer-sneak'`)).toHaveLength(0);
});

test("a member of acme asking for globex's pages by URL gets 404", async () => {
  for (const path of [
    "/tenants/globex",
    "/tenants/globex/keys",
    "/tenants/globex/routes",
    "/tenants/globex/members",
    "/tenants/globex/audit",
    "/tenants/globex/config",
    "/tenants/globex/limits/edit?at=tenant&name=writes",
    "/tenants/no-such-tenant",
    "/plans",
    "/tokens",
    "/audit",
    "/config",
  ]) {
    const response = await viewerPage.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(viewerPage.getByText("Globex Corporation")).toHaveCount(0);
  }
  await viewerPage.goto("/");
  await expect(viewerPage.getByTestId("tenants-table")).toContainText("acme");
  await expect(viewerPage.getByTestId("tenants-table")).not.toContainText("globex");
});
