import { expect, test, type Page } from "@playwright/test";
import { check, operator, signedIn, uniqueSlug } from "./support/dashboard";

// A local limit set in the limit editor: the over-admission bound shown next to the
// setting follows the numbers and the assumed server count, the limit is saved with its
// consistency, and /api/check decides it (no Redis call per check, same answer shape).

test.describe.configure({ mode: "serial" });

let page: Page;
const slug = uniqueSlug("e2e-local");

test.beforeAll(async ({ browser }) => {
  page = await signedIn(browser, operator);
});

test("sets a local limit and shows its over-admission bound", async () => {
  await page.goto("/");
  const form = page.getByTestId("create-tenant");
  await form.getByLabel("Slug").fill(slug);
  await form.getByLabel("Display name").fill(`E2E ${slug}`);
  await form.getByLabel("Plan").selectOption("free");
  await form.getByRole("button", { name: "Create tenant" }).click();
  // the overview is paged: the new tenant is found by searching for it
  await expect(async () => {
    await page.goto(`/?q=${slug}`);
    await expect(page.getByRole("link", { name: `E2E ${slug}` })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await page.getByRole("link", { name: `E2E ${slug}` }).click();
  await page.getByRole("link", { name: "Add a tenant limit" }).click();
  const editor = page.getByTestId("limit-editor");
  await editor.getByLabel("Name").fill("e2e-local");
  await editor.getByLabel("Counted per").selectOption("tenant");
  await editor.getByText("Fixed window", { exact: true }).click();
  await editor.getByRole("textbox", { name: "Limit", exact: true }).fill("6000");
  await editor.getByRole("textbox", { name: "Window" }).fill("1m");
  const bound = editor.getByTestId("over-admission");
  await expect(bound).toContainText("Exact");
  await editor.getByLabel("Consistency").selectOption("local");
  await editor.getByRole("textbox", { name: "Sync every" }).fill("500ms");
  // (2 - 1) x 6000/60000ms x 500ms = 50
  await expect(bound).toContainText("about 50 over the limit");
  await editor.getByLabel("Servers (N, assumed)").fill("5");
  await expect(bound).toContainText("about 200 over the limit");
  await editor.getByRole("textbox", { name: "Sync every" }).fill("5ms");
  await editor.getByRole("button", { name: "Save limit" }).click();
  await expect(editor.getByText(/10ms to 60s/).first()).toBeVisible();
  await editor.getByRole("textbox", { name: "Sync every" }).fill("500ms");
  await editor.getByRole("button", { name: "Save limit" }).click();
  await expect(page.getByTestId("limit-e2e-local")).toContainText("local, sync 500ms");

  const started = Date.now();
  let decision = await check(page, { tenant: slug, dryRun: true });
  while (!decision.limits.some((l) => l.name === "e2e-local") && Date.now() - started < 2_000)
    decision = await check(page, { tenant: slug, dryRun: true });
  const allowed = await check(page, { tenant: slug });
  expect(allowed.allowed).toBe(true);
  expect(allowed.limits.find((l) => l.name === "e2e-local")).toMatchObject({ limit: 6000, remaining: 5999 });
});
