import "server-only";
import type { CompiledLimit } from "@/lib/control/config/compile";
import { blockEntryOf } from "@/lib/check/limiter/penalty-args";
import { entryId, ownerKey } from "@/lib/check/limiter/keys";
import { ownerOf, type CounterOwners } from "@/lib/check/limit-specs";
import type { RedisClient } from "@/lib/shared/redis/redis";

// A penalty's block as Redis holds it (lua/run-check.lua's penalize): an entry of the
// limit's owner key, 40 bytes (lua/common.lua): its 8-character name, then its end, its
// length and when it was set, as little-endian doubles, and the entry's own end.

/** Where a limit's block for these owners lives, or null (no penalty, or no such owner). */
export function blockTarget(
  tenantId: string,
  limit: CompiledLimit,
  owners: CounterOwners,
): { key: string; entry: string } | null {
  if (limit.rule.penalty === undefined) return null;
  const owner = ownerOf(limit, owners);
  if (owner === null) return null;
  return {
    key: ownerKey(tenantId, owner),
    entry: blockEntryOf(entryId(limit.id, limit.route, limit.rule.algorithm)),
  };
}

/** ms left in the block at Redis' `nowMs`, or null when none is in force. */
export async function blockLeftMs(
  client: RedisClient,
  target: { key: string; entry: string },
  nowMs: number,
): Promise<number | null> {
  const value = await client.getBuffer(target.key);
  if (value === null) return null;
  for (let at = 0; at + 40 <= value.length; at += 40) {
    if (value.toString("latin1", at, at + 8) !== target.entry) continue;
    const ends = value.readDoubleLE(at + 8);
    return ends > nowMs ? ends - nowMs : null;
  }
  return null;
}

/** Redis' clock in ms (blocks end by it). */
export async function redisNowMs(client: RedisClient): Promise<number> {
  const [seconds, micros] = await client.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

/**
 * The ms left in each limit's block (index by `limits`), read from Redis, where a limit has
 * a penalty and a block is in force; the others undefined. One Redis clock read for all.
 */
export async function blocksLeft(
  client: RedisClient,
  tenantId: string,
  limits: readonly CompiledLimit[],
  owners: CounterOwners,
): Promise<(number | undefined)[]> {
  const targets = limits.map((limit) => blockTarget(tenantId, limit, owners));
  if (targets.every((target) => target === null)) return limits.map(() => undefined);
  const now = await redisNowMs(client);
  return Promise.all(
    targets.map(async (target) =>
      target === null ? undefined : ((await blockLeftMs(client, target, now)) ?? undefined),
    ),
  );
}
