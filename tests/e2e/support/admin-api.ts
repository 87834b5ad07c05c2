import { expect, type Page } from "@playwright/test";

// Seeding through the admin API with the bootstrap token (an operator), shared by the
// dashboard specs: tenants with their limits, and their API keys.

const bootstrap = process.env.SLUICE_BOOTSTRAP_TOKEN ?? "test-bootstrap-token-000000000000";
export const adminHeaders: Record<string, string> = { authorization: `Bearer ${bootstrap}` };

export interface TenantSeed {
  slug: string;
  name?: string;
  /** a plan's name; when left out, the configuration's first plan */
  plan?: string;
  limits: Record<string, unknown>[];
}

/** The configuration's first plan (the admin API's export). */
export async function firstPlan(page: Page): Promise<string | undefined> {
  const config = await page.request.get("/api/admin/config", { headers: adminHeaders });
  return ((await config.json()) as { plans?: { name: string }[] }).plans?.[0]?.name;
}

/** Creates (or updates) a tenant with its limits, then creates the named API keys of it. */
export async function seedTenant(
  page: Page,
  tenant: TenantSeed,
  keys: readonly string[] = [],
): Promise<void> {
  const plan = tenant.plan ?? (await firstPlan(page));
  const put = await page.request.put("/api/admin/config", {
    headers: adminHeaders,
    data: { tenants: [{ ...tenant, plan }] },
  });
  expect(put.status(), await put.text()).toBe(200);
  for (const name of keys) {
    const key = await page.request.post(`/api/admin/tenants/${tenant.slug}/keys`, {
      headers: adminHeaders,
      data: { name },
    });
    expect(key.status()).toBe(201);
  }
}

export interface OverrideBody {
  tenant: string;
  limit: string;
  value: number | "disabled";
  endsAt: string;
  reason: string;
  key?: string;
  subject?: string;
}

/** Creates a temporary override (docs/overrides.md) through the admin API; its id. */
export async function createOverride(page: Page, body: OverrideBody): Promise<string> {
  const reply = await page.request.post("/api/admin/overrides", { headers: adminHeaders, data: body });
  expect(reply.status(), await reply.text()).toBe(201);
  return ((await reply.json()) as { id: string }).id;
}

/** Ends an override now through the admin API. */
export async function endOverride(page: Page, id: string): Promise<void> {
  const reply = await page.request.post(`/api/admin/overrides/${id}/end`, { headers: adminHeaders });
  expect(reply.status(), await reply.text()).toBe(200);
}
