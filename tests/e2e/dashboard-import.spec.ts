import { expect, test, type Page } from "@playwright/test";
import { operator, query, screenshot, signedIn, uniqueSlug } from "./support/dashboard";

// YAML import: a document with errors lists every error with its path and changes nothing;
// a valid one shows the change list and a line diff, applies, and is audited.

test.describe.configure({ mode: "serial" });

let page: Page;
const slug = uniqueSlug("e2e-yaml");

test.beforeAll(async ({ browser }) => {
  page = await signedIn(browser, operator);
});

async function versionCount(): Promise<number> {
  const rows = await query<{ n: number }>(`select count(*)::int as n from "ConfigVersion"`);
  return rows[0]?.n ?? 0;
}

test("a document with errors shows each with its path and changes nothing", async () => {
  await page.goto("/config");
  const before = await versionCount();
  const bad = [
    "tenants:",
    `  - slug: ${slug}`,
    "    plan: no-such-plan",
    "    limits:",
    "      - { name: a, by: tenant, algorithm: fixed_window, limit: 0, window: 1s }",
    "      - { name: b, by: tenant, algorithm: warp_drive, limit: 5, window: forever }",
  ].join("\n");
  await page.getByLabel("Configuration (YAML)").fill(bad);
  await page.getByRole("button", { name: "Preview changes" }).click();
  const errors = page.getByTestId("import-errors");
  await expect(errors).toBeVisible();
  await expect(errors).toContainText("tenants[0].limits[0].limit");
  await expect(errors).toContainText("tenants[0].limits[1].algorithm");
  await expect(errors).toContainText("tenants[0].limits[1].window");
  await screenshot(page, "import-errors");
  expect(await versionCount()).toBe(before);
  expect(await query(`select 1 from "Tenant" where slug = $1`, [slug])).toHaveLength(0);
});

test("a valid document shows the diff, applies, and is audited", async () => {
  const good = [
    "tenants:",
    `  - slug: ${slug}`,
    "    name: YAML Tenant",
    "    plan: free",
    "    limits:",
    "      - { name: tenant-rpm, limit: 1500 }",
    "      - { name: yaml-cap, by: tenant, algorithm: sliding_window, limit: 50, window: 1m }",
  ].join("\n");
  await page.getByLabel("Configuration (YAML)").fill(good);
  await page.getByRole("button", { name: "Preview changes" }).click();
  const preview = page.getByTestId("import-preview");
  await expect(preview).toContainText(`tenant ${slug}`);
  await expect(preview).toContainText("create");
  await expect(page.getByTestId("yaml-diff")).toContainText("+ ");
  await expect(page.getByTestId("yaml-diff")).toContainText("yaml-cap");
  await screenshot(page, "import-diff");
  expect(await query(`select 1 from "Tenant" where slug = $1`, [slug])).toHaveLength(0);
  await page.getByRole("button", { name: /Apply 1 change/ }).click();
  await expect(page.getByRole("status")).toContainText("Applied: 1 change");
  expect(await query(`select 1 from "Tenant" where slug = $1`, [slug])).toHaveLength(1);
  const audit = await query<{ action: string; actorLabel: string }>(
    `select a.action, a."actorLabel" from "AuditEntry" a join "Tenant" t on t.id = a."tenantId" where t.slug = $1`,
    [slug],
  );
  expect(audit).toEqual([{ action: "tenant.create", actorLabel: operator.email }]);
  await page.goto(`/tenants/${slug}/audit`);
  await expect(page.getByTestId("audit-table")).toContainText("tenant.create");
  await page.getByTestId("audit-table").locator("summary").first().click();
  await expect(page.getByTestId("audit-table")).toContainText("yaml-cap");
  await screenshot(page, "audit-before-after");
});
