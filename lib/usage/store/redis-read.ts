import "server-only";
import type { RedisClient } from "@/lib/shared/redis/redis";
import { pairsKey, parsePairField, parseSecondField, secondsKey, type ParsedField } from "@/lib/usage/keys";
import { pairEntries } from "@/lib/usage/pair-series";
import { addLeaseTally, parseLeaseField, type ParsedLeaseField } from "@/lib/usage/lease-fields";
import type { MinuteRow } from "@/lib/control/data/usage/rollup-writer";
import { ZERO_COUNTS, type Counts, type Outcome } from "@/lib/usage/types";

// Reads a tenant's per-second counts, minute by minute: its pairs hash and the older layout's
// seconds hash (keys.ts). On a Cluster every key here shares the tenant's tag. One minute a
// round trip, not all in one pipeline: Redis runs a pipeline's commands back to back, and
// an hour of a busy tenant's minutes at once would hold up every check meanwhile.

export interface MinuteHash {
  pairs: Record<string, string>;
  seconds: Record<string, string>;
}

/** One minute of a tenant's counts in both layouts; null when it has none. */
export async function readMinute(
  client: RedisClient,
  ns: string,
  tenantId: string,
  minute: number,
): Promise<MinuteHash | null> {
  const replies =
    (await client
      .pipeline()
      .hgetall(pairsKey(ns, tenantId, minute))
      .hgetall(secondsKey(ns, tenantId, minute))
      .exec()) ?? [];
  const [pairs = {}, seconds = {}] = replies.map(([error, value]) => {
    if (error) throw error;
    return value && typeof value === "object" ? (value as Record<string, string>) : {};
  });
  return Object.keys(pairs).length > 0 || Object.keys(seconds).length > 0 ? { pairs, seconds } : null;
}

export async function readMinutes(
  client: RedisClient,
  ns: string,
  tenantId: string,
  minutes: readonly number[],
): Promise<Map<number, MinuteHash>> {
  const found = new Map<number, MinuteHash>();
  for (const minute of minutes) {
    const hash = await readMinute(client, ns, tenantId, minute);
    if (hash) found.set(minute, hash);
  }
  return found;
}

/** A minute's counts per (second, key, route, outcome), from both layouts. */
export function* fieldsOf(hash: MinuteHash): Generator<ParsedField & { count: number }> {
  for (const [field, raw] of Object.entries(hash.pairs)) {
    const parsed = parsePairField(field);
    if (!parsed) continue;
    for (const [second, count] of pairEntries(raw)) yield { ...parsed, second, count };
  }
  for (const [field, raw] of Object.entries(hash.seconds)) {
    const parsed = parseSecondField(field);
    const count = Number(raw);
    if (parsed && Number.isFinite(count)) yield { ...parsed, count };
  }
}

/** A minute's lease counts per (second, key, route, tally): the pairs layout only (lease-fields.ts). */
export function* leaseFieldsOf(
  hash: MinuteHash,
): Generator<ParsedLeaseField & { second: number; count: number }> {
  for (const [field, raw] of Object.entries(hash.pairs)) {
    const parsed = parseLeaseField(field);
    if (!parsed) continue;
    for (const [second, count] of pairEntries(raw)) yield { ...parsed, second, count };
  }
}

const COUNT_FIELD: Record<Outcome, keyof Counts> = {
  allowed: "allowed",
  rejected: "rejected",
  shadow_rejected: "shadowRejected",
  degraded: "degraded",
};

export function addOutcome(into: Counts, outcome: Outcome, count: number): void {
  into[COUNT_FIELD[outcome]] += count;
}

/**
 * One minute's totals per (key, route): the rows the rollup writes, once the minute is
 * complete (its leases due in it are all past, their releases in time all counted).
 */
export function minuteRows(tenantId: string, hash: MinuteHash): MinuteRow[] {
  const rows = new Map<string, MinuteRow>();
  const rowOf = (keyId: string, route: string): MinuteRow => {
    const id = `${keyId}\u0000${route}`;
    let row = rows.get(id);
    if (!row) {
      row = { tenantId, keyId, route, ...ZERO_COUNTS };
      rows.set(id, row);
    }
    return row;
  };
  for (const f of fieldsOf(hash)) addOutcome(rowOf(f.keyId, f.route), f.outcome, f.count);
  for (const f of leaseFieldsOf(hash)) addLeaseTally(rowOf(f.keyId, f.route), f.tally, f.count);
  // a token altered to name another key or route could release "before due" what was never due there
  for (const row of rows.values()) row.leasesExpired = Math.max(0, row.leasesExpired);
  return [...rows.values()];
}
