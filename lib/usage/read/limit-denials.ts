import "server-only";
import { limitDenialsKey, minuteOf, MINUTE_MS } from "@/lib/usage/keys";
import { mergeDenials, type LimitDenial } from "@/lib/shared/limit-denial";
import { watermarks, type RowContext } from "@/lib/usage/read/rows";
import { denialsOfHash } from "@/lib/usage/store/denials-read";
import { denialSpans } from "@/lib/usage/read/denial-spans";
import { denialsStoredSince, storedDenials } from "@/lib/control/data/usage/denial-reads";
import { usageSettings } from "@/lib/usage/settings";

// The rejections of a range by the limit that denied them: the recent minutes from Redis
// (flush.ts, one hash per tenant-minute), older ones from what the rollup stored in
// PostgreSQL (hours, and minutes whose hour is not summed yet), cut at the rollup's
// watermarks so no minute is read from two stores (denial-spans.ts). Exact: every rejection
// whose answer named a denying limit is counted, none sampled; past the cap of rows per
// tenant-hour the rest counts under its limit with keyId and route "*". The caller names
// the tenant it already scoped (usageTenant): only that tenant's data is read.

export type { LimitDenial } from "@/lib/shared/limit-denial";

export interface DenialsRead {
  denials: LimitDenial[];
  /** where the counts start (epoch ms): the range's start, or later where no store reaches back */
  since: number;
}

/** Redis' denials of the minutes [from, to). */
async function redisDenials(
  ctx: RowContext,
  tenantId: string,
  from: number,
  to: number,
): Promise<LimitDenial[]> {
  const first = minuteOf(from);
  const last = Math.min(minuteOf(to - 1), minuteOf(ctx.now));
  if (first > last) return [];
  const pipe = ctx.client.pipeline();
  for (let m = first; m <= last; m++) pipe.hgetall(limitDenialsKey(ctx.ns, tenantId, m));
  const lists: LimitDenial[][] = [];
  for (const [error, reply] of (await pipe.exec()) ?? []) {
    if (error) throw error;
    lists.push(denialsOfHash(reply as Record<string, string>));
  }
  return mergeDenials(...lists);
}

/** Denials of one tenant in [from, to), summed per (key, route, limit). */
export async function limitDenials(
  ctx: RowContext,
  tenantId: string,
  from: number,
  to: number,
): Promise<DenialsRead> {
  const oldest = minuteOf(ctx.now - ctx.secondsRetentionMs) * MINUTE_MS;
  const spans = denialSpans(from, to, await watermarks(ctx), oldest);
  const [stored, recent] = await Promise.all([
    storedDenials(tenantId, spans),
    spans.redis ? redisDenials(ctx, tenantId, spans.redis.from, spans.redis.to) : [],
  ]);
  let since = spans.since;
  if (spans.hours || spans.minutes) {
    // stored rows reach back no further than the tables (their migration) and their retention
    const tables = await denialsStoredSince();
    since = Math.max(since, tables ?? since, ctx.now - usageSettings().hoursRetentionMs);
  }
  return { denials: mergeDenials(stored, recent), since: Math.min(since, to) };
}
