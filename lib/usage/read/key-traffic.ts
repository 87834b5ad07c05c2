import "server-only";
import type { Principal } from "@/lib/shared/principal";
import type { RowContext } from "@/lib/usage/read/rows";
import { sourceFor } from "@/lib/usage/read/rows";
import { rowContext } from "@/lib/usage/read/context";
import { RANGES, type RangeId } from "@/lib/usage/ranges";
import { visitScoped } from "@/lib/usage/read/scoped-reader";

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

function entryOf(map: Map<string, KeyTraffic>, id: string): KeyTraffic {
  let entry = map.get(id);
  if (!entry) {
    const spark = new Array<number>(SPARK_BUCKETS).fill(0);
    entry = { checks: 0, rejected: 0, degraded: 0, rate: null, spark, sparkRejected: [...spark] };
    map.set(id, entry);
  }
  return entry;
}

function add(entry: KeyTraffic, checks: number, rejected: number, degraded: number, bucket: number): void {
  entry.checks += checks;
  entry.rejected += rejected;
  entry.degraded += degraded;
  entry.spark[bucket] = (entry.spark[bucket] ?? 0) + checks;
  entry.sparkRejected[bucket] = (entry.sparkRejected[bucket] ?? 0) + rejected;
}

export async function keysTraffic(
  principal: Principal,
  tenantSlug: string,
  range: RangeId,
  ctx: RowContext = rowContext(),
  /** only these key ids (the keys one page shows); all the tenant's keys without */
  keyIds?: readonly string[],
): Promise<KeysTraffic> {
  const { rangeMs, stepMs } = RANGES[range];
  const to = Math.ceil((ctx.now + 1) / stepMs) * stepMs;
  const from = to - rangeMs;
  const source = sourceFor(stepMs);
  const bucketMs = rangeMs / SPARK_BUCKETS;
  // by key id while reading (summed as read: no row per second is kept), by name after
  const byId = new Map<string, KeyTraffic>();
  const scope = { tenant: tenantSlug, from, to, source, ...(keyIds === undefined ? {} : { keyIds }) };
  const { names } = await visitScoped(
    principal,
    scope,
    ctx,
    stepMs,
    (row) => {
      if (row.keyId === "") return;
      const bucket = Math.min(SPARK_BUCKETS - 1, Math.max(0, Math.floor((row.t - from) / bucketMs)));
      add(
        entryOf(byId, row.keyId),
        row.allowed + row.rejected + row.degraded,
        row.rejected,
        row.degraded,
        bucket,
      );
    },
    // per key and step only: the rows come summed over routes
    { byKey: true, byRoute: false },
  );
  const keys = new Map<string, KeyTraffic>();
  for (const [id, entry] of byId) {
    const into = entryOf(keys, names.get(id) ?? id);
    for (let b = 0; b < SPARK_BUCKETS; b++) {
      into.spark[b] = (into.spark[b] ?? 0) + (entry.spark[b] ?? 0);
      into.sparkRejected[b] = (into.sparkRejected[b] ?? 0) + (entry.sparkRejected[b] ?? 0);
    }
    Object.assign(into, {
      checks: into.checks + entry.checks,
      rejected: into.rejected + entry.rejected,
      degraded: into.degraded + entry.degraded,
    });
  }
  for (const entry of keys.values()) entry.rate = entry.checks > 0 ? entry.rejected / entry.checks : null;
  return { range, from, to, keys };
}
