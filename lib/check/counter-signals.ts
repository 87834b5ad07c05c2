import "server-only";
import type { RedisClient } from "@/lib/shared/redis/redis";

// Counters can vanish behind the deny cache's back: an admin reset, a FLUSHALL, a Redis
// restart. The cache stays exact only if every server forgets its stored denials then. An
// admin reset announces itself on this channel (call announceCountersReset after deleting);
// the config holder listens on its subscriber connection, and a flush or restart is seen
// by the holder (the config version vanished) and the hot client (a reconnect).

export function countersResetChannel(prefix: string): string {
  return `${prefix}sluice:counters:reset`;
}

/** Tell every enforcement server that counters were cleared (best effort: never throws). */
export async function announceCountersReset(client: RedisClient, prefix: string): Promise<void> {
  await client.publish(countersResetChannel(prefix), "1").catch(() => 0);
}
