import "server-only";
import type { RedisClient } from "@/lib/shared/redis/redis";

// Counters can vanish behind the deny cache's back: an admin reset, a FLUSHALL, a Redis
// restart. The cache stays exact only if every server forgets its stored denials then. An
// admin reset announces itself on this channel (call announceCountersReset after deleting);
// the config holder listens on its subscriber connection, and a flush or restart is seen
// by the holder (the config version vanished) and the hot client (a reconnect). A lifted
// penalty block goes the same way with its own message, so servers forget only the blocks.

export function countersResetChannel(prefix: string): string {
  return `${prefix}sluice:counters:reset`;
}

/** Tell every enforcement server that counters were cleared (best effort: never throws). */
export async function announceCountersReset(client: RedisClient, prefix: string): Promise<void> {
  await client.publish(countersResetChannel(prefix), "1").catch(() => 0);
}

/** The message on the same channel when an operator lifts a penalty's block: servers forget the blocks they hold. */
export const LIFT_MESSAGE = "lift";

/** Tell every enforcement server that a block was lifted (best effort: never throws). */
export async function announceBlockLifted(client: RedisClient, prefix: string): Promise<void> {
  await client.publish(countersResetChannel(prefix), LIFT_MESSAGE).catch(() => 0);
}
