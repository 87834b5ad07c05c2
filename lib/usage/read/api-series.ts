import "server-only";
import type { Principal } from "@/lib/shared/principal";
import type { RowContext } from "@/lib/usage/read/rows";
import { sourceFor } from "@/lib/usage/read/rows";
import { rowContext } from "@/lib/usage/read/context";
import { toSeries } from "@/lib/usage/read/query";
import { readCompact } from "@/lib/usage/read/scoped-reader";

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

const RESOLUTION = { seconds: 1_000, minutes: 60_000, hours: 3_600_000, days: 86_400_000 } as const;

export async function queryUsage(
  principal: Principal,
  request: UsageRequest,
  ctx: RowContext = rowContext(),
) {
  const source = sourceFor(request.stepMs);
  const { series } = await readCompact(
    principal,
    {
      tenant: request.tenant,
      key: request.key,
      route: request.route,
      from: request.fromMs,
      to: request.toMs,
      source,
      stepMs: request.stepMs,
    },
    ctx,
  );
  return {
    tenant: request.tenant ?? null,
    key: request.key ?? null,
    route: request.route ?? null,
    from: new Date(request.fromMs).toISOString(),
    to: new Date(request.toMs).toISOString(),
    stepMs: request.stepMs,
    resolutionMs: RESOLUTION[source],
    points: toSeries(series, request.fromMs, request.toMs, request.stepMs).map((p) => ({
      ...p,
      t: new Date(p.t).toISOString(),
    })),
  };
}
