import "server-only";
import type { RedisClient } from "@/lib/redis";
import { parseSecondField, secondsKey, type ParsedField } from "@/lib/usage/keys";
import type { MinuteRow } from "@/lib/data/usage/rollup-writer";
import { ZERO_COUNTS, type Counts, type Outcome } from "@/lib/usage/types";

// Reads per-second hashes of one tenant. On a Cluster every key here shares the tenant's
// tag, so one pipeline still works.

export type MinuteHash = Record<string, string>;

export async function readMinutes(
  client: RedisClient,
  ns: string,
  tenantId: string,
  minutes: readonly number[],
): Promise<Map<number, MinuteHash>> {
  const found = new Map<number, MinuteHash>();
  if (minutes.length === 0) return found;
  const pipe = client.pipeline();
  for (const minute of minutes) pipe.hgetall(secondsKey(ns, tenantId, minute));
  const replies = (await pipe.exec()) ?? [];
  replies.forEach(([error, value], i) => {
    if (error) throw error;
    const minute = minutes[i];
    if (minute !== undefined && value && typeof value === "object") found.set(minute, value as MinuteHash);
  });
  return found;
}

export function* fieldsOf(hash: MinuteHash): Generator<ParsedField & { count: number }> {
  for (const [field, raw] of Object.entries(hash)) {
    const parsed = parseSecondField(field);
    const count = Number(raw);
    if (parsed && Number.isFinite(count)) yield { ...parsed, count };
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

/** One minute's totals per (key, route): the rows the rollup writes. */
export function minuteRows(tenantId: string, hash: MinuteHash): MinuteRow[] {
  const rows = new Map<string, MinuteRow>();
  for (const f of fieldsOf(hash)) {
    const id = `${f.keyId}\u0000${f.route}`;
    let row = rows.get(id);
    if (!row) {
      row = { tenantId, keyId: f.keyId, route: f.route, ...ZERO_COUNTS };
      rows.set(id, row);
    }
    addOutcome(row, f.outcome, f.count);
  }
  return [...rows.values()];
}
