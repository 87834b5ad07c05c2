import { expect, test } from "@playwright/test";
import { signedIn, viewer } from "./support/dashboard";

// The API reference page renders the OpenAPI document for any signed-in user,
// with nothing loaded from another origin (it must work with no internet) and no CSP error.

test("a viewer opens the API reference from the nav and sees the check operation", async ({ browser }) => {
  const page = await signedIn(browser, viewer);
  const foreign: string[] = [];
  const problems: string[] = [];
  const origin = new URL(page.url()).origin;
  page.on("request", (request) => {
    if (!request.url().startsWith(origin) && !request.url().startsWith("data:")) foreign.push(request.url());
  });
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API" }).click();
  await expect(page.getByRole("heading", { name: "API reference" })).toBeVisible();
  const check = page.locator("#op-check");
  await expect(check.getByRole("heading", { name: "POST /api/check" })).toBeVisible();
  await expect(check).toContainText("serviceToken");
  await expect(check).toContainText("curl -X POST");
  await expect(check.getByRole("link", { name: "Decision" })).toHaveAttribute("href", "#schema-Decision");
  await expect(page.locator("#schema-Decision")).toContainText("retryAfterMs");
  await expect(page.locator("#op-importConfig")).toContainText("422");
  expect(foreign).toEqual([]);
  expect(problems).toEqual([]);
});
