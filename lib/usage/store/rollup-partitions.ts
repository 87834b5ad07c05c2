import "server-only";
import type { RedisClient } from "@/lib/shared/redis/redis";
import {
  dropPartitionsBefore,
  ensurePartition,
  PARTITION_GRAIN,
  partitionsOver,
  type UsageTable,
} from "@/lib/control/data/usage/partitions";
import { clearPartitionFailure, recordPartitionFailure } from "@/lib/usage/partition-health";

// The rollup's care of the partitions: each table's partitions from the oldest time it may
// still write (its watermark) to some way ahead of now are made to exist before the writes,
// and retention drops the partitions wholly past it. A partition that cannot be created is
// counted (partition-health.ts) and the run goes on: the writes into it then fail, and the
// next run tries again.

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** How far ahead of now each table's partitions exist. */
const AHEAD_MS: Record<UsageTable, number> = {
  UsageMinutePair: 3 * HOUR,
  UsageMinute: 2 * DAY,
  UsageHour: 14 * DAY,
  UsageDay: 62 * DAY,
  UsageDenialMinute: 3 * HOUR,
  UsageDenialHour: 14 * DAY,
};

export class PartitionKeeper {
  /** partitions known to exist (table + start): each is asked for once per process */
  private readonly known = new Set<string>();

  constructor(
    private readonly client: RedisClient,
    private readonly ns: string,
  ) {}

  /** Ensures `table`'s partitions from `fromMs` to `now` plus its margin; returns the failures. */
  async prepare(table: UsageTable, fromMs: number, now: number): Promise<number> {
    let failures = 0;
    for (const start of partitionsOver(PARTITION_GRAIN[table], fromMs, now + AHEAD_MS[table])) {
      const id = `${table}@${start}`;
      if (this.known.has(id)) continue;
      try {
        await ensurePartition(table, start);
        this.known.add(id);
        // once per partition and process: a partition that failed before is reported no more
        await clearPartitionFailure(this.client, this.ns, id).catch(() => undefined);
      } catch (error) {
        failures++;
        await recordPartitionFailure(this.client, this.ns, id, error).catch(() => undefined);
      }
    }
    return failures;
  }

  /** Drops `table`'s partitions that end at or before `beforeMs`. */
  async drop(table: UsageTable, beforeMs: number): Promise<number> {
    const dropped = await dropPartitionsBefore(table, beforeMs);
    // a dropped partition may be asked for again (a rollup far behind): forget the old ones
    if (dropped > 0) for (const id of this.known) if (id.startsWith(`${table}@`)) this.known.delete(id);
    return dropped;
  }
}
