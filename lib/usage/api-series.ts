import "server-only";
import type { Principal } from "@/lib/auth/principal";
import { rowContext } from "@/lib/usage/context";
import { toSeries } from "@/lib/usage/query";
import { readRows, sourceFor, type UsageRow } from "@/lib/data/usage/rows";
import { keyIdByName, usageTenant, visibleTenants } from "@/lib/data/usage/scope";

// GET /api/admin/usage's answer from the live stores: seconds from Redis, minutes not yet
// rolled up included, rollups from PostgreSQL beyond. Without a tenant: the sum over every
// tenant the principal sees.

export interface UsageRequest {
  tenant?: string;
  key?: string;
  route?: string;
  fromMs: number;
  toMs: number;
  stepMs: number;
}

const RESOLUTION = { seconds: 1_000, minutes: 60_000, hours: 3_600_000 } as const;

export async function queryUsage(principal: Principal, request: UsageRequest) {
  const ctx = rowContext();
  const source = sourceFor(request.stepMs);
  const tenants = request.tenant === undefined ? await visibleTenants(principal) : [await usageTenant(principal, request.tenant)];
  const keyId = request.key !== undefined && tenants[0] ? await keyIdByName(tenants[0], request.key) : undefined;
  const rows: UsageRow[] = [];
  for (const tenant of tenants) {
    for (const row of await readRows(tenant.id, request.fromMs, request.toMs, source, ctx)) {
      if ((keyId === undefined || row.keyId === keyId) && (request.route === undefined || row.route === request.route))
        rows.push(row);
    }
  }
  return {
    tenant: request.tenant ?? null,
    key: request.key ?? null,
    route: request.route ?? null,
    from: new Date(request.fromMs).toISOString(),
    to: new Date(request.toMs).toISOString(),
    stepMs: request.stepMs,
    resolutionMs: RESOLUTION[source],
    points: toSeries(rows, request.fromMs, request.toMs, request.stepMs).map((p) => ({ ...p, t: new Date(p.t).toISOString() })),
  };
}
