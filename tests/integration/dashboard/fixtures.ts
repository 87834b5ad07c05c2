// Tenants and users for the dashboard DAL tests: unique slugs per test file, made through
// the same import the app uses (as the system principal), users and memberships directly.
import type { Principal, Role } from "@/lib/shared/principal";
import { loadUserPrincipal } from "@/lib/control/data/auth/users";
import { importConfig } from "@/lib/control/data/import-config";
import { createApiKey } from "@/lib/control/data/api-keys";
import { db } from "@/lib/control/data/db";

export const system: Principal = { kind: "system", label: "dashboard-tests" };

export const uniqueSlug = (prefix: string): string =>
  `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

export async function anyPlan(): Promise<string> {
  const plan = await db().plan.findFirst({ orderBy: { name: "asc" }, select: { name: true } });
  if (plan) return plan.name;
  await importConfig(system, { plans: [{ name: "dash-test-plan", limits: [] }] });
  return "dash-test-plan";
}

/** A tenant with one limit, one route and one key (named "k1"). */
export async function makeTenant(slug: string, plan: string): Promise<string> {
  await importConfig(system, {
    tenants: [
      {
        slug,
        name: `Tenant ${slug}`,
        plan,
        limits: [{ name: "own-cap", by: "tenant", algorithm: "fixed_window", limit: 10, window: "1m" }],
        routes: [
          {
            pattern: "GET /dash/*",
            limits: [{ name: "dash-route", by: "tenant", algorithm: "gcra", limit: 5, window: "1s" }],
          },
        ],
      },
    ],
  });
  await createApiKey(system, slug, { name: "k1" });
  const row = await db().tenant.findUniqueOrThrow({ where: { slug }, select: { id: true } });
  return row.id;
}

export async function makeMember(
  email: string,
  tenantId: string,
  role: Role,
): Promise<Extract<Principal, { kind: "user" }>> {
  const user = await db().user.create({
    data: {
      email,
      name: email,
      passwordHash: "scrypt$1$1$1$x$y",
      memberships: { create: [{ tenantId, role }] },
    },
  });
  const principal = await loadUserPrincipal(user.id);
  if (!principal) throw new Error("user vanished");
  return principal;
}
