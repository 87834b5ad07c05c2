import "server-only";
import type { Principal } from "@/lib/auth/principal";
import type { RowContext } from "@/lib/data/usage/rows";
import { sourceFor } from "@/lib/data/usage/rows";
import { rowContext } from "@/lib/usage/context";
import { RANGES, type RangeId } from "@/lib/usage/ranges";
import { readScoped } from "@/lib/usage/scoped-reader";

// Traffic per API key over a range, for the keys page: checks, rejections and a small
// series per key, read once through the scoped reader (NotFoundError for tenants the
// principal may not see).

export const SPARK_BUCKETS = 30;

export interface KeyTraffic {
  /** allowed + rejected + degraded (shadow rejections are allowed checks) */
  checks: number;
  rejected: number;
  degraded: number;
  /** rejected / checks, null without checks */
  rate: number | null;
  /** checks per bucket, SPARK_BUCKETS buckets oldest first */
  spark: number[];
  /** rejected per bucket, same buckets */
  sparkRejected: number[];
}

export interface KeysTraffic {
  range: RangeId;
  from: number;
  to: number;
  /** by key name; keys without traffic are absent */
  keys: Map<string, KeyTraffic>;
}

export async function keysTraffic(
  principal: Principal,
  tenantSlug: string,
  range: RangeId,
  ctx: RowContext = rowContext(),
): Promise<KeysTraffic> {
  const { rangeMs, stepMs } = RANGES[range];
  const to = Math.ceil((ctx.now + 1) / stepMs) * stepMs;
  const from = to - rangeMs;
  const source = sourceFor(stepMs);
  const { rows, names } = await readScoped(principal, { tenant: tenantSlug, from, to, source }, ctx);
  const bucketMs = rangeMs / SPARK_BUCKETS;
  const keys = new Map<string, KeyTraffic>();
  for (const row of rows) {
    if (row.keyId === "") continue;
    const name = names.get(row.keyId) ?? row.keyId;
    let entry = keys.get(name);
    if (!entry) {
      entry = {
        checks: 0,
        rejected: 0,
        degraded: 0,
        rate: null,
        spark: new Array<number>(SPARK_BUCKETS).fill(0),
        sparkRejected: new Array<number>(SPARK_BUCKETS).fill(0),
      };
      keys.set(name, entry);
    }
    const checks = row.allowed + row.rejected + row.degraded;
    entry.checks += checks;
    entry.rejected += row.rejected;
    entry.degraded += row.degraded;
    const bucket = Math.min(SPARK_BUCKETS - 1, Math.max(0, Math.floor((row.t - from) / bucketMs)));
    entry.spark[bucket] = (entry.spark[bucket] ?? 0) + checks;
    entry.sparkRejected[bucket] = (entry.sparkRejected[bucket] ?? 0) + row.rejected;
  }
  for (const entry of keys.values()) entry.rate = entry.checks > 0 ? entry.rejected / entry.checks : null;
  return { range, from, to, keys };
}
