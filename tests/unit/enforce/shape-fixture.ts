import type { CompiledLimit, CompiledTenant, Snapshot } from "@/lib/control/config/compile";
import type { KeyRecord } from "@/lib/check/config-index";
import type { Target } from "@/lib/check/resolve";
import { compiledLimit } from "./fixtures";

// A tenant with limits counted by tenant, key and subject, with and without a route (one a
// sliding log, which keeps a key of its own), for the check-shape tests.

export const ROUTE = "GET /items/:id";

export function shapeLimits(subjectLimit = 10): CompiledLimit[] {
  return [
    compiledLimit("per-tenant", "tenant", { limit: 1_000, windowMs: 3_600_000 }),
    compiledLimit("per-key", "key", { limit: 1_000, windowMs: 3_600_000 }),
    compiledLimit("per-subject", "subject", {
      algorithm: "fixed_window",
      limit: subjectLimit,
      windowMs: 3_600_000,
    }),
    compiledLimit(
      "subject-log",
      "subject",
      { algorithm: "sliding_log", limit: 100, windowMs: 60_000 },
      ROUTE,
    ),
  ];
}

export function shapeSnapshot(tenantId: string, limits = shapeLimits()): Snapshot {
  const tenant: CompiledTenant = {
    id: tenantId,
    slug: "acme",
    name: "Acme",
    plan: "free",
    status: "active",
    routes: [],
    limits: { unrouted: [], routed: {} },
    keyDefault: {
      unrouted: limits.filter((l) => l.route === null),
      routed: { [ROUTE]: limits.filter((l) => l.route === ROUTE) },
    },
    keys: {
      backend: { id: "K1", name: "backend", limits: null },
      mobile: { id: "K2", name: "mobile", limits: null },
    },
    keyNameById: { K1: "backend", K2: "mobile" },
    service: null,
  };
  return {
    format: 1,
    version: 1,
    routes: [ROUTE],
    tenants: { acme: tenant },
    tenantSlugById: { [tenantId]: "acme" },
  };
}

export function keyRecord(name: string, id: string): KeyRecord {
  return { tenant: "acme", name, id, expiresAt: null, revoked: false };
}

export function shapeTarget(snapshot: Snapshot, key = keyRecord("backend", "K1")): Target {
  const tenant = snapshot.tenants.acme as CompiledTenant;
  return {
    kind: "target",
    tenant,
    key,
    routes: { global: ROUTE, tenant: null },
    route: ROUTE,
  };
}
