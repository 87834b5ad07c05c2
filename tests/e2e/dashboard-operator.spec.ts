import { expect, test, type Page } from "@playwright/test";
import { check, operator, query, screenshot, sha256, signedIn, uniqueSlug } from "./support/dashboard";

// The operator's path through the dashboard: a tenant, a key, a limit; the limit changed and
// enforced by /api/check within a second; secrets shown once and stored only as hashes.

test.describe.configure({ mode: "serial" });

let page: Page;
const slug = uniqueSlug("e2e");
let secret = "";

test.beforeAll(async ({ browser }) => {
  page = await signedIn(browser, operator);
});

test("creates a tenant from the overview", async () => {
  await page.goto("/");
  await screenshot(page, "overview");
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
  await expect(page.getByRole("heading", { name: `E2E ${slug}` })).toBeVisible();
  // Inherited from plan free, untouched here.
  await expect(page.getByTestId("limit-tenant-rpm")).toContainText("inherited");
});

test("creates a key whose secret is shown once and stored only as a hash", async () => {
  await page.goto(`/tenants/${slug}/keys`);
  await expect(page.getByText("No keys yet")).toBeVisible();
  const form = page.getByTestId("create-key");
  await form.getByLabel("Name").fill("backend");
  await form.getByRole("button", { name: "Create key" }).click();
  secret = (await page.getByTestId("secret-value").textContent()) ?? "";
  expect(secret).toMatch(/^sk_[A-Za-z0-9_-]{32}$/);
  await screenshot(page, "keys-secret-once");
  await expect(page.getByTestId("key-backend")).toContainText("active");
  // Never again: a reload shows only the prefix.
  await page.reload();
  await expect(page.getByTestId("secret-value")).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);
  const rows = await query<{ hash: string; prefix: string }>(
    `select k.hash, k.prefix from "ApiKey" k join "Tenant" t on t.id = k."tenantId" where t.slug = $1`,
    [slug],
  );
  expect(rows).toHaveLength(1);
  expect(rows[0]?.hash).toBe(sha256(secret));
  expect(secret.startsWith(rows[0]?.prefix ?? "x")).toBe(true);
  const leaks = await query(`select 1 from "ApiKey" where hash = $1 or prefix = $1`, [secret]);
  expect(leaks).toHaveLength(0);
  const auditLeak = await query(
    `select 1 from "AuditEntry" where before::text like $1 or after::text like $1`,
    [`%${secret}%`],
  );
  expect(auditLeak).toHaveLength(0);
});

test("creates a limit, changes it, and /api/check enforces the new value within 1 s", async () => {
  await page.goto(`/tenants/${slug}`);
  await page.getByRole("link", { name: "Add a tenant limit" }).click();
  const editor = page.getByTestId("limit-editor");
  await editor.getByLabel("Name").fill("e2e-cap");
  // Field-level errors from the same zod schema, before anything is sent.
  await editor.getByRole("textbox", { name: "Window" }).fill("soon");
  await editor.getByRole("button", { name: "Save limit" }).click();
  await expect(editor.locator("#l-window-msg")).toHaveText(/must be a duration/);
  await editor.getByLabel("Counted per").selectOption("tenant");
  await editor.getByText("Fixed window", { exact: true }).click();
  await editor.getByRole("textbox", { name: "Limit", exact: true }).fill("3");
  await editor.getByRole("textbox", { name: "Window" }).fill("1h");
  await expect(page.locator(".burst-chart")).toBeVisible();
  await screenshot(page, "limit-editor");
  await editor.getByRole("button", { name: "Save limit" }).click();
  await expect(page.getByTestId("limit-e2e-cap")).toContainText("declared here");

  const body = { tenant: slug, key: "backend" };
  // The new limit reaches the servers within 1 s (contract): wait for it before counting.
  const created = Date.now();
  let probe = await check(page, { ...body, dryRun: true });
  while (!probe.limits.some((l) => l.name === "e2e-cap") && Date.now() - created < 1_000)
    probe = await check(page, { ...body, dryRun: true });
  expect(probe.limits.some((l) => l.name === "e2e-cap")).toBe(true);
  for (let i = 0; i < 3; i += 1) expect((await check(page, body)).allowed).toBe(true);
  const denied = await check(page, body);
  expect(denied.allowed).toBe(false);
  expect(denied.reason).toBe("rate_limited");
  await screenshot(page, "tenant-limits");

  await page.getByTestId("limit-e2e-cap").getByRole("link", { name: "Edit" }).click();
  await page.getByTestId("limit-editor").getByRole("textbox", { name: "Limit", exact: true }).fill("5");
  await page.getByTestId("limit-editor").getByRole("button", { name: "Save limit" }).click();
  await expect(page.getByTestId("limit-e2e-cap")).toContainText("5 / 1h");
  const saved = Date.now();
  let decision = await check(page, { ...body, dryRun: true });
  while (!decision.allowed && Date.now() - saved < 1_000)
    decision = await check(page, { ...body, dryRun: true });
  expect(decision.allowed).toBe(true);
  expect(Date.now() - saved).toBeLessThanOrEqual(1_000);
  expect(decision.limits.find((l) => l.name === "e2e-cap")?.limit).toBe(5);
});

test("revoking a key asks first, then /api/check answers revoked_key", async () => {
  await page.goto(`/tenants/${slug}/keys`);
  const row = page.getByTestId("key-backend");
  await row.getByRole("button", { name: "Revoke" }).click();
  await row.getByRole("button", { name: "Revoke key" }).click();
  await expect(row).toContainText("revoked");
  await expect
    .poll(async () => (await check(page, { apiKey: secret, dryRun: true })).reason, { timeout: 2_000 })
    .toBe("revoked_key");
});

test("main pages render (screenshots)", async () => {
  // ten pages in one test: 30 s is three a page, which a loaded machine passed (34.7 s)
  test.setTimeout(120_000);
  for (const [path, name] of [
    [`/tenants/acme`, "tenant-acme-limits"],
    [`/tenants/acme/keys`, "tenant-acme-keys"],
    [`/tenants/acme/routes`, "tenant-acme-routes"],
    [`/tenants/acme/tokens`, "tenant-acme-tokens"],
    [`/tenants/acme/members`, "tenant-acme-members"],
    [`/tenants/${slug}/audit`, "tenant-audit"],
    [`/plans`, "plans"],
    [`/tokens`, "tokens"],
    [`/audit`, "audit"],
    [`/config`, "config"],
  ] as const) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await screenshot(page, name);
  }
});
