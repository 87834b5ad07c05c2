import "server-only";
import type { RedisClient } from "@/lib/shared/redis/redis";
import { recordLastUsed } from "@/lib/control/data/credential-last-used";
import { parseUses } from "@/lib/usage/record/credential-use";
import { lastUsedKey } from "@/lib/usage/keys";

// Moves the last-used times the checking processes flushed to Redis into PostgreSQL. Runs
// beside the rollup (the app process); several servers may run it at once: the hash is
// read and deleted in one transaction, so each time is taken by exactly one of them.

export async function moveLastUsed(client: RedisClient, ns: string): Promise<number> {
  const key = lastUsedKey(ns);
  const replies = (await client.multi().hgetall(key).del(key).exec()) ?? [];
  const [error, hash] = replies[0] ?? [null, null];
  if (error) throw error;
  if (!hash || typeof hash !== "object") return 0;
  const uses = parseUses(hash as Record<string, string>);
  try {
    return await recordLastUsed(uses.keys, uses.tokens);
  } catch (failure) {
    // PostgreSQL away: put the times back for the next run (one noted meanwhile may be set
    // back by up to a minute; the credential's next use corrects it)
    const back = Object.entries(hash as Record<string, string>);
    if (back.length > 0) await client.hset(key, Object.fromEntries(back)).catch(() => undefined);
    throw failure;
  }
}
