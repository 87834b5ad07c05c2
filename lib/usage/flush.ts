import "server-only";
import type { ChainableCommander } from "ioredis";
import type { RedisClient } from "@/lib/redis";
import { minuteIndexKey, offendersKey, recentKey, secondsKey } from "@/lib/usage/keys";
import { RECENT_PER_TENANT } from "@/lib/usage/recent";

/** A quiet tenant's sample stays readable this long after its last decision. */
const RECENT_TTL_SECONDS = 86_400;
import type { UsageBatch } from "@/lib/usage/batch";

// Writes one batch: a single pipeline on a single Redis; on a Cluster one pipeline per
// tenant (its keys share the {u:<tenant>} tag) plus one for the minute index, because a
// Cluster pipeline must stay within one slot.

export interface FlushSettings {
  ns: string;
  /** TTL of the per-second hashes: the seconds retention plus time for the rollup to read */
  ttlSeconds: number;
  /** offenders kept per tenant per minute */
  topOffenders: number;
}

function writeTenant(
  pipe: ChainableCommander,
  settings: FlushSettings,
  tenantId: string,
  batch: UsageBatch,
): void {
  const tenant = batch.tenants.get(tenantId);
  if (!tenant) return;
  for (const [minute, fields] of tenant.seconds) {
    const key = secondsKey(settings.ns, tenantId, minute);
    for (const [field, count] of fields) pipe.hincrby(key, field, count);
    pipe.expire(key, settings.ttlSeconds);
  }
  writeRecent(pipe, settings, tenantId, batch);
  for (const [minute, members] of tenant.offenders) {
    const key = offendersKey(settings.ns, tenantId, minute);
    for (const [member, count] of members) pipe.zincrby(key, count, member);
    // keep the top N only: the structure stays bounded however many subjects misbehave
    pipe.zremrangebyrank(key, 0, -(settings.topOffenders + 1));
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
    pipe.ltrim(key, 0, RECENT_PER_TENANT - 1);
    pipe.expire(key, RECENT_TTL_SECONDS);
  }
}

function writeIndex(pipe: ChainableCommander, settings: FlushSettings, batch: UsageBatch): void {
  const byMinute = new Map<number, string[]>();
  for (const [tenantId, tenant] of batch.tenants) {
    for (const minute of tenant.seconds.keys()) {
      const list = byMinute.get(minute) ?? [];
      list.push(tenantId);
      byMinute.set(minute, list);
    }
  }
  for (const [minute, tenants] of byMinute) {
    const key = minuteIndexKey(settings.ns, minute);
    pipe.sadd(key, ...tenants);
    pipe.expire(key, settings.ttlSeconds);
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
