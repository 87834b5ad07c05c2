import "server-only";
import type { ChainableCommander } from "ioredis";
import type { RedisClient } from "@/lib/shared/redis/redis";
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
import type { TenantBatch, UsageBatch } from "@/lib/usage/record/batch";

// Writes one batch: a single pipeline on a single Redis; on a Cluster one pipeline per
// tenant (its keys share the {u:<tenant>} tag) plus one for the minute index, because a
// Cluster pipeline must stay within one slot.

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

function writeTenant(
  pipe: ChainableCommander,
  settings: FlushSettings,
  tenantId: string,
  batch: UsageBatch,
): void {
  const tenant = batch.tenants.get(tenantId);
  if (!tenant) return;
  for (const [minute, seconds] of tenant.pairs) {
    writeCounts(pipe, pairsKey(settings.ns, tenantId, minute), seconds, minuteTtl(settings, minute));
  }
  writeRecent(pipe, settings, tenantId, batch);
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
  batch: UsageBatch,
): void {
  const recent = batch.recent.drainTenant(tenantId);
  if (!recent) return;
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

function writeIndex(pipe: ChainableCommander, settings: FlushSettings, batch: UsageBatch): void {
  const byMinute = new Map<number, string[]>();
  for (const [tenantId, tenant] of batch.tenants) {
    for (const minute of tenant.pairs.keys()) {
      const list = byMinute.get(minute) ?? [];
      list.push(tenantId);
      byMinute.set(minute, list);
    }
  }
  for (const [minute, tenants] of byMinute) {
    const key = minuteIndexKey(settings.ns, minute);
    pipe.sadd(key, ...tenants);
    pipe.expire(key, minuteTtl(settings, minute));
  }
}

async function run(pipe: ChainableCommander): Promise<void> {
  const replies = await pipe.exec();
  if (!replies) throw new Error("usage flush: pipeline discarded");
  const failed = replies.find(([error]) => error);
  if (failed?.[0]) throw failed[0];
}

/** Resolves once every command succeeded; rejects on the first failure. */
export async function writeBatch(
  client: RedisClient,
  settings: FlushSettings,
  batch: UsageBatch,
): Promise<void> {
  if (!client.isCluster) {
    const pipe = client.pipeline();
    for (const tenantId of batch.tenants.keys()) writeTenant(pipe, settings, tenantId, batch);
    writeIndex(pipe, settings, batch);
    await run(pipe);
    return;
  }
  const pipes: ChainableCommander[] = [];
  for (const tenantId of batch.tenants.keys()) {
    const pipe = client.pipeline();
    writeTenant(pipe, settings, tenantId, batch);
    pipes.push(pipe);
  }
  const index = client.pipeline();
  writeIndex(index, settings, batch);
  pipes.push(index);
  await Promise.all(pipes.map(run));
}
