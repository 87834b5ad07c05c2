import { randomBytes } from "node:crypto";
import type { Principal } from "@/lib/shared/principal";
import type { PlanDoc, RouteDoc, TenantDoc } from "@/lib/control/config/document";
import { createApiKey } from "@/lib/control/data/api-keys";
import { importConfig } from "@/lib/control/data/import-config";
import { createServiceToken } from "@/lib/control/data/tokens";
import { exportConfig } from "@/lib/control/data/export-config";
import { closeDb } from "@/lib/control/data/db";
import { closeRedis } from "@/lib/shared/redis/redis";

// Test data through the same DAL the admin API uses (one transaction + audit + publish per
// change). Slugs are unique per run, so files never collide with each other or the demo.

export const tester: Principal = { kind: "system", label: "test" };

const RUN = randomBytes(3).toString("hex");
let counter = 0;

/** A fresh tenant slug or limit name: "<prefix>-<run>-<n>". */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${RUN}-${counter}`;
}

export type TenantSpec = Omit<TenantDoc, "keys" | "name" | "status" | "limits" | "routes"> &
  Partial<Pick<TenantDoc, "name" | "status" | "limits" | "routes" | "keys">>;

export interface Tenants {
  version: number;
  /** "<slug>/<key name>" -> secret */
  keys: Record<string, string>;
}

/** Creates or updates tenants with their keys (keys first: key limits need them), returning secrets. */
export async function setupTenants(
  tenants: TenantSpec[],
  extra: { keysWithoutLimits?: Array<{ tenant: string; name: string; expiresAt?: string }> } = {},
): Promise<Tenants> {
  const full: TenantDoc[] = tenants.map((t) => ({
    name: t.slug,
    status: "active",
    limits: [],
    routes: [],
    keys: [],
    ...t,
  }));
  await importConfig(tester, { tenants: full.map((t) => ({ ...t, keys: [] })) });
  const keys: Record<string, string> = {};
  const wanted = [
    ...full.flatMap((t) => t.keys.map((k) => ({ tenant: t.slug, name: k.name, expiresAt: undefined }))),
    ...(extra.keysWithoutLimits ?? []),
  ];
  for (const { tenant, name, expiresAt } of wanted) {
    const created = await createApiKey(tester, tenant, expiresAt ? { name, expiresAt } : { name });
    keys[`${tenant}/${name}`] = created.key;
  }
  const result = await importConfig(tester, { tenants: full });
  return { version: result.configVersion ?? 0, keys };
}

/** Imports a document (plans/routes as given) and returns the new version. */
export async function importDoc(document: unknown): Promise<number> {
  const result = await importConfig(tester, document);
  return result.configVersion ?? 0;
}

export async function serviceToken(tenants?: string[]): Promise<string> {
  const created = await createServiceToken(
    tester,
    tenants ? { name: unique("svc"), tenants } : { name: unique("svc") },
  );
  return created.token;
}

export async function closeClients(): Promise<void> {
  await closeDb();
  await closeRedis();
}

/** Adds plans and global routes, keeping every existing one exactly as it is. */
export async function addPlansAndRoutes(plans: PlanDoc[], routes: RouteDoc[] = []): Promise<number> {
  const current = await exportConfig(tester);
  return importDoc({
    plans: [...(current.plans ?? []), ...plans],
    routes: [...(current.routes ?? []), ...routes],
  });
}

/** Tenant limits that switch off the demo plan's limits, for a clean slate on plan "free". */
export const FREE_PLAN_OFF = [
  { name: "tenant-rpm", disabled: true },
  { name: "key-rps", disabled: true },
  { name: "ip-per-min", disabled: true },
];
