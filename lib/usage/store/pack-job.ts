import "server-only";
import type { RedisClient } from "@/lib/shared/redis/redis";
import { DAY_MS, HOUR_MS, jobKeys, MINUTE_MS } from "@/lib/usage/keys";
import { packIndex, unpackedIndexes, type UsageTable } from "@/lib/control/data/usage/partitions";

// Packs the primary keys of complete usage partitions (partitions.ts, packIndex): a day of
// minutes once the rollup is past it, a week of hours (and of denial hours), a month of days.
// The short-lived minute pairs and denial minutes are dropped within hours and left as they are. Run by the rollup's lease
// holder, apart from the rollup (a big partition takes a while and must not hold up the
// minutes); a partition is packed once, the catalog remembering it (fillfactor 100), so
// partitions that existed before are packed on the first runs.

export interface PackOptions {
  client: RedisClient;
  ns: string;
  /** at most this many indexes a run (each a few seconds to a minute at the realistic mix) */
  maxPerRun?: number;
}

/** Complete partitions are those before the rollup's watermarks. */
async function completeBefore(client: RedisClient, ns: string): Promise<Record<UsageTable, number>> {
  const keys = jobKeys(ns);
  const [minute, hour, day] = await client.mget(keys.minutes, keys.hours, keys.days);
  const at = (mark: string | null | undefined, unit: number) => (mark ? Number(mark) * unit : 0);
  return {
    UsageMinute: at(minute, MINUTE_MS),
    UsageMinutePair: 0,
    UsageHour: at(hour, HOUR_MS),
    UsageDay: at(day, DAY_MS),
    UsageDenialMinute: 0,
    UsageDenialHour: at(hour, HOUR_MS),
  };
}

/** Packs up to maxPerRun complete partitions' keys; returns their names. */
export async function packCompletePartitions(options: PackOptions): Promise<string[]> {
  const before = await completeBefore(options.client, options.ns);
  const packed: string[] = [];
  for (const table of ["UsageMinute", "UsageHour", "UsageDay", "UsageDenialHour"] as const) {
    for (const name of await unpackedIndexes(table, before[table])) {
      if (packed.length >= (options.maxPerRun ?? 2)) return packed;
      await packIndex(name);
      packed.push(name);
    }
  }
  return packed;
}
