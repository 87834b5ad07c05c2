import "server-only";
import type { ChainableCommander } from "ioredis";
import {
  degradedCausesKey,
  limitDenialField,
  limitDenialsKey,
  minuteIndexKey,
  offenderDetailKey,
  offendersKey,
  pairsKey,
  parsePairField,
  recentKey,
} from "@/lib/usage/keys";
import { parseDenyingLimit } from "@/lib/usage/record/denying-limit";
import { pairTexts } from "@/lib/usage/pair-series";
import { LOG_PER_TENANT, RECENT_TTL_SECONDS } from "@/lib/usage/recent";
import { scriptOf } from "@/lib/shared/redis/lua-files";
import type { TenantBatch } from "@/lib/usage/record/batch";
import type { TenantRecent } from "@/lib/usage/recent";

// The commands that write one batch: each tenant's counts (its keys share the {u:<tenant>}
// tag, so they fit one transaction on a Cluster too) and the minute index. flush-units.ts
// sends them and retries what failed.

export interface FlushSettings {
  ns: string;
  /** TTL of the per-second hashes: the seconds retention plus time for the rollup to read */
  ttlSeconds: number;
  /** offenders kept per tenant per minute */
  topOffenders: number;
  /** the flush's time (epoch ms): a minute still ahead (leases due then) is kept until it is past */
  nowMs: number;
}

/** The TTL of a minute's keys: the usual one, from the minute's end when that is still ahead. */
export function minuteTtl(settings: FlushSettings, minute: number): number {
  const ahead = Math.ceil(((minute + 1) * 60_000 - settings.nowMs) / 1_000);
  return settings.ttlSeconds + Math.max(0, ahead);
}

/** The detail set (by key, route, subject) keeps this many times the tenant-wide top N. */
export const DETAIL_FACTOR = 4;

/**
 * Fields per call of lua/happend-many.lua: a call runs alone on Redis, so a few hundred
 * microseconds at most, and the arguments stay a modest buffer.
 */
export const FIELDS_PER_CALL = 500;

const happendMany = scriptOf("happend-many.lua");

/**
 * A minute's counts appended to its pairs hash, FIELDS_PER_CALL fields a call. EVAL with the
 * text, not EVALSHA: in a pipeline a NOSCRIPT (a restarted Redis) would fail the flush, and
 * Redis finds the compiled script by the text's SHA-1, a few hundred bytes to hash.
 */
function writeCounts(
  pipe: ChainableCommander,
  key: string,
  seconds: ReadonlyMap<number, ReadonlyMap<string, number>>,
  ttl: number,
): void {
  const { lua } = happendMany();
  let args: Array<string | number> = [ttl];
  for (const [field, text] of pairTexts(seconds)) {
    args.push(field, text);
    if (args.length > 2 * FIELDS_PER_CALL) {
      pipe.eval(lua, 1, key, ...args);
      args = [ttl];
    }
  }
  if (args.length > 1) pipe.eval(lua, 1, key, ...args);
}

/** One tenant's counts of a batch (all on its {u:<tenant>} slot): flush-units.ts wraps them in a MULTI. */
export function writeTenant(
  pipe: ChainableCommander,
  settings: FlushSettings,
  tenantId: string,
  tenant: TenantBatch,
  recent: TenantRecent | null,
): void {
  for (const [minute, seconds] of tenant.pairs) {
    writeCounts(pipe, pairsKey(settings.ns, tenantId, minute), seconds, minuteTtl(settings, minute));
  }
  if (recent) writeRecent(pipe, settings, tenantId, recent);
  for (const [minute, causes] of tenant.causes) {
    const key = degradedCausesKey(settings.ns, tenantId, minute);
    for (const [cause, count] of causes) pipe.hincrby(key, cause, count);
    pipe.expire(key, settings.ttlSeconds);
  }
  writeDenials(pipe, settings, tenantId, tenant.denials);
  for (const [minute, members] of tenant.offenders) {
    const key = offendersKey(settings.ns, tenantId, minute);
    for (const [member, count] of members) pipe.zincrby(key, count, member);
    // keep the top N only: the structure stays bounded however many subjects misbehave
    pipe.zremrangebyrank(key, 0, -(settings.topOffenders + 1));
    pipe.expire(key, settings.ttlSeconds);
  }
  for (const [minute, members] of tenant.details) {
    const key = offenderDetailKey(settings.ns, tenantId, minute);
    for (const [member, count] of members) pipe.zincrby(key, count, member);
    // several (key, route) pairs share the set: keep more than the tenant-wide top N
    pipe.zremrangebyrank(key, 0, -(settings.topOffenders * DETAIL_FACTOR + 1));
    pipe.expire(key, settings.ttlSeconds);
  }
}

/** Rejections per (key, route, denying limit) and minute, kept as long as the seconds. */
function writeDenials(
  pipe: ChainableCommander,
  settings: FlushSettings,
  tenantId: string,
  denials: TenantBatch["denials"],
): void {
  for (const [minute, byField] of denials) {
    const key = limitDenialsKey(settings.ns, tenantId, minute);
    for (const [field, byLimit] of byField) {
      const pair = parsePairField(field);
      if (!pair) continue;
      for (const [text, count] of byLimit) {
        const limit = parseDenyingLimit(text);
        if (limit) pipe.hincrby(key, limitDenialField(pair.keyId, pair.route, limit), count);
      }
    }
    pipe.expire(key, settings.ttlSeconds);
  }
}

/** The sample of recent decisions: pushed newest first, the lists cut to their cap. */
function writeRecent(
  pipe: ChainableCommander,
  settings: FlushSettings,
  tenantId: string,
  recent: TenantRecent,
): void {
  for (const [which, entries] of [
    ["d", recent.decisions],
    ["x", recent.denials],
  ] as const) {
    if (entries.length === 0) continue;
    const key = recentKey(settings.ns, tenantId, which);
    pipe.lpush(key, ...entries.map((e) => JSON.stringify(e)));
    pipe.ltrim(key, 0, LOG_PER_TENANT - 1);
    pipe.expire(key, RECENT_TTL_SECONDS);
  }
}

/** The tenants with counts in each minute, for the minute index. */
export function indexOf(
  tenants: Iterable<{ tenantId: string; counts: TenantBatch }>,
  into = new Map<number, Set<string>>(),
): Map<number, Set<string>> {
  for (const { tenantId, counts } of tenants) {
    for (const minute of counts.pairs.keys()) {
      const set = into.get(minute) ?? new Set<string>();
      set.add(tenantId);
      into.set(minute, set);
    }
  }
  return into;
}

/** SADD is idempotent: the index of a failed flush is simply written again. */
export function writeIndex(
  pipe: ChainableCommander,
  settings: FlushSettings,
  index: ReadonlyMap<number, ReadonlySet<string>>,
): void {
  for (const [minute, tenants] of index) {
    if (tenants.size === 0) continue;
    const key = minuteIndexKey(settings.ns, minute);
    pipe.sadd(key, ...tenants);
    pipe.expire(key, minuteTtl(settings, minute));
  }
}
