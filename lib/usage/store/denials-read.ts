import "server-only";
import type { RedisClient } from "@/lib/shared/redis/redis";
import { limitDenialsKey } from "@/lib/usage/keys";
import { capDenials, parseDenialField, type LimitDenial } from "@/lib/shared/limit-denial";

// A tenant-minute's rejections per denying limit, as the recorder wrote them (flush.ts, one
// hash per tenant-minute), for the rollup and the limit tree's recent minutes.

/** One minute's hash as rows, at most DENIAL_ROWS_CAP of them (capDenials). */
export async function readMinuteDenials(
  client: RedisClient,
  ns: string,
  tenantId: string,
  minute: number,
): Promise<LimitDenial[]> {
  const hash = await client.hgetall(limitDenialsKey(ns, tenantId, minute));
  return capDenials(denialsOfHash(hash));
}

/** A hash's fields as rows; fields not written by flush.ts are skipped. */
export function denialsOfHash(hash: Record<string, string>): LimitDenial[] {
  const rows: LimitDenial[] = [];
  for (const [field, raw] of Object.entries(hash)) {
    const row = parseDenialField(field, raw);
    if (row) rows.push(row);
  }
  return rows;
}
