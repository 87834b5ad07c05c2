import "server-only";
import { isOperator, roleIn, type Principal } from "@/lib/auth/principal";
import { Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db";
import { NotFoundError } from "@/lib/config/dal/errors";
import { tenantFor } from "@/lib/config/dal/tenant-access";

// Usage time series from the rollup tables (UsageMinute, UsageHour), bucketed by `step` in
// SQL. Live per-second counts in Redis are the usage-recording issue's; until it lands the
// tables are empty and every bucket is zero, but the query and its shape are the real ones.

export interface UsageRequest {
  tenant?: string;
  key?: string;
  /** the resolved route pattern, as recorded */
  route?: string;
  fromMs: number;
  toMs: number;
  stepMs: number;
}

export interface UsagePoint {
  t: string;
  allowed: number;
  rejected: number;
  shadowRejected: number;
  degraded: number;
}

export interface UsageSeries {
  tenant: string | null;
  key: string | null;
  route: string | null;
  from: string;
  to: string;
  stepMs: number;
  /** the finest time the source table resolves: a step below it puts each row in one bucket */
  resolutionMs: number;
  points: UsagePoint[];
}

const HOUR = 3_600_000;

interface BucketRow {
  bucket: bigint;
  allowed: bigint | null;
  rejected: bigint | null;
  shadow: bigint | null;
  degraded: bigint | null;
}

/** Tenant ids to count: one named tenant, every tenant the principal sees, or all (null). */
async function tenantScope(principal: Principal, tenant: string | undefined): Promise<string[] | null> {
  if (tenant !== undefined) return [(await tenantFor(db(), principal, tenant, "viewer")).id];
  if (isOperator(principal)) return null;
  const tenants = await db().tenant.findMany({ select: { id: true } });
  return tenants.filter((t) => roleIn(principal, t.id) !== null).map((t) => t.id);
}

export async function queryUsage(principal: Principal, request: UsageRequest): Promise<UsageSeries> {
  const tenantIds = await tenantScope(principal, request.tenant);
  let keyId: string | null = null;
  if (request.key !== undefined && tenantIds?.[0] !== undefined) {
    const key = await db().apiKey.findUnique({
      where: { tenantId_name: { tenantId: tenantIds[0], name: request.key } },
      select: { id: true },
    });
    if (!key) throw new NotFoundError(`Tenant ${request.tenant} has no key named ${request.key}.`);
    keyId = key.id;
  }
  const hourly = request.stepMs % HOUR === 0;
  const table = Prisma.raw(hourly ? `"UsageHour"` : `"UsageMinute"`);
  const column = Prisma.raw(hourly ? `"hour"` : `"minute"`);
  const start = Math.floor(request.fromMs / request.stepMs) * request.stepMs;
  const filters: Prisma.Sql[] = [
    Prisma.sql`${column} >= ${new Date(start)}`,
    Prisma.sql`${column} < ${new Date(request.toMs)}`,
  ];
  if (tenantIds !== null)
    filters.push(
      tenantIds.length ? Prisma.sql`"tenantId" IN (${Prisma.join(tenantIds)})` : Prisma.sql`false`,
    );
  if (keyId !== null) filters.push(Prisma.sql`"keyId" = ${keyId}`);
  if (request.route !== undefined) filters.push(Prisma.sql`"route" = ${request.route}`);
  const rows = await db().$queryRaw<BucketRow[]>`
    SELECT floor((extract(epoch from ${column}) * 1000 - ${start}) / ${request.stepMs})::bigint AS bucket,
           sum("allowed")::bigint AS allowed, sum("rejected")::bigint AS rejected,
           sum("shadowRejected")::bigint AS shadow, sum("degraded")::bigint AS degraded
    FROM ${table} WHERE ${Prisma.join(filters, " AND ")} GROUP BY 1`;
  const byBucket = new Map(rows.map((row) => [Number(row.bucket), row]));
  const points: UsagePoint[] = [];
  for (let i = 0, t = start; t < request.toMs; i += 1, t += request.stepMs) {
    const row = byBucket.get(i);
    points.push({
      t: new Date(t).toISOString(),
      allowed: Number(row?.allowed ?? 0),
      rejected: Number(row?.rejected ?? 0),
      shadowRejected: Number(row?.shadow ?? 0),
      degraded: Number(row?.degraded ?? 0),
    });
  }
  return {
    tenant: request.tenant ?? null,
    key: request.key ?? null,
    route: request.route ?? null,
    from: new Date(request.fromMs).toISOString(),
    to: new Date(request.toMs).toISOString(),
    stepMs: request.stepMs,
    resolutionMs: hourly ? HOUR : 60_000,
    points,
  };
}
