import "server-only";
import type { RedisClient } from "@/lib/shared/redis/redis";
import { DAY_MS, HOUR_MS, jobKeys, minuteIndexKey, MINUTE_MS, type JobKeys } from "@/lib/usage/keys";
import { RollupLease } from "@/lib/usage/lease";
import { minuteRows, readMinutes } from "@/lib/usage/store/redis-read";
import { readMinuteDenials } from "@/lib/usage/store/denials-read";
import type { DenialRow } from "@/lib/control/data/usage/denial-writer";
import { PartitionKeeper } from "@/lib/usage/store/rollup-partitions";
import { refreshTenantTraffic } from "@/lib/control/data/usage/tenant-traffic";
import {
  LeaseLost,
  writeDay,
  writeHour,
  writeMinute,
  type MinuteRow,
} from "@/lib/control/data/usage/rollup-writer";

// Moves completed minutes from Redis into PostgreSQL (with their rejections per denying
// limit), then hours from minutes and days from hours, then drops partitions past their
// retention. Only the lease holder works.
// Watermarks (first minute / hour / day not yet written) live next to the lease and advance
// only while the lease is ours; a minute re-written after a crash gets the same absolute
// totals, so every minute counts once. A rollup that fell behind (stopped, PostgreSQL away)
// catches up maxMinutesPerRun minutes a run, as long as Redis still holds them.

export interface RollupOptions {
  client: RedisClient;
  ns: string;
  owner: string;
  secondsRetentionMs: number;
  minutesRetentionMs: number;
  hoursRetentionMs: number;
  /** default 3 years */
  daysRetentionMs?: number;
  /** the minutes' key x route pairs, default 3 hours; never dropped before their hour is rolled up */
  pairMinutesRetentionMs?: number;
  clock?: () => number;
  /** how long after a minute ends before it counts as complete (flushes arrive within ~2 s) */
  graceMs?: number;
  leaseTtlMs?: number;
  maxMinutesPerRun?: number;
  retentionEveryMs?: number;
}

export interface RollupRun {
  held: boolean;
  minutes: number;
  hours: number;
  days: number;
  /** partitions dropped by retention */
  droppedPartitions: number;
  /** partitions that could not be created (also counted in Redis for /api/metrics) */
  partitionFailures: number;
}

export class UsageRollup {
  readonly lease: RollupLease;
  private readonly keys: JobKeys;
  private readonly partitions: PartitionKeeper;

  constructor(private readonly options: RollupOptions) {
    this.keys = jobKeys(options.ns);
    this.lease = new RollupLease(options.client, this.keys, options.owner, options.leaseTtlMs ?? 15_000);
    this.partitions = new PartitionKeeper(options.client, options.ns);
  }

  private now(): number {
    return (this.options.clock ?? Date.now)();
  }

  private async watermark(key: string, fallback: number): Promise<number> {
    const raw = await this.options.client.get(key);
    return raw === null ? fallback : Number(raw);
  }

  private async advance(key: string, to: number): Promise<void> {
    if (!(await this.lease.setIfHolder(key, String(to)))) throw new LeaseLost("lease lost");
  }

  async runOnce(): Promise<RollupRun> {
    const held = await this.lease.acquire();
    const run: RollupRun = {
      held,
      minutes: 0,
      hours: 0,
      days: 0,
      droppedPartitions: 0,
      partitionFailures: 0,
    };
    if (!run.held) return run;
    const now = this.now();
    const stillHeld = () => this.lease.held();
    // Without a watermark (first start, flushed Redis) begin with the oldest minute Redis may hold.
    const first = await this.watermark(
      this.keys.minutes,
      Math.floor((now - this.options.secondsRetentionMs) / MINUTE_MS),
    );
    const firstHour = await this.watermark(this.keys.hours, Math.floor(first / 60));
    const firstDay = await this.watermark(this.keys.days, Math.floor(firstHour / 24));
    for (const [table, from] of [
      ["UsageMinutePair", first * MINUTE_MS],
      ["UsageMinute", first * MINUTE_MS],
      ["UsageHour", firstHour * HOUR_MS],
      ["UsageDay", firstDay * DAY_MS],
      ["UsageDenialMinute", first * MINUTE_MS],
      ["UsageDenialHour", firstHour * HOUR_MS],
    ] as const)
      run.partitionFailures += await this.partitions.prepare(table, from, now);
    const complete = Math.floor((now - (this.options.graceMs ?? 8_000)) / MINUTE_MS);
    const last = Math.min(complete, first + (this.options.maxMinutesPerRun ?? 120));
    for (let minute = first; minute < last; minute++) {
      const { rows, denials } = await this.rowsOf(minute);
      await writeMinute(minute * MINUTE_MS, rows, stillHeld, denials);
      await this.advance(this.keys.minutes, minute + 1);
      run.minutes++;
    }
    // the console's per-tenant traffic follows the minutes just rolled up
    if (run.minutes > 0) await refreshTenantTraffic(last * MINUTE_MS);
    const hoursDone = Math.floor(Math.max(first, last) / 60);
    for (let hour = firstHour; hour < hoursDone; hour++) {
      await writeHour(hour * HOUR_MS, stillHeld);
      await this.advance(this.keys.hours, hour + 1);
      run.hours++;
    }
    for (let day = firstDay; day < Math.floor(Math.max(firstHour, hoursDone) / 24); day++) {
      await writeDay(day * DAY_MS, stillHeld);
      await this.advance(this.keys.days, day + 1);
      run.days++;
    }
    run.droppedPartitions = await this.sweep(now, Math.max(firstHour, hoursDone) * HOUR_MS);
    return run;
  }

  /** A minute's pairs and rejections per denying limit, of every tenant the minute's index names. */
  private async rowsOf(minute: number): Promise<{ rows: MinuteRow[]; denials: DenialRow[] }> {
    const { client, ns } = this.options;
    const tenants = await client.smembers(minuteIndexKey(ns, minute));
    const rows: MinuteRow[] = [];
    const denials: DenialRow[] = [];
    for (const tenantId of tenants) {
      const hashes = await readMinutes(client, ns, tenantId, [minute]);
      const hash = hashes.get(minute);
      if (hash) rows.push(...minuteRows(tenantId, hash));
      for (const d of await readMinuteDenials(client, ns, tenantId, minute)) denials.push({ tenantId, ...d });
    }
    return { rows, denials };
  }

  /** Retention: whole partitions past it are dropped; pairs only once their hour is rolled up. */
  private async sweep(now: number, hoursRolledTo: number): Promise<number> {
    const last = await this.watermark(this.keys.retention, 0);
    if (now - last < (this.options.retentionEveryMs ?? 600_000)) return 0;
    const o = this.options;
    const pairsBefore = Math.min(hoursRolledTo, now - (o.pairMinutesRetentionMs ?? 3 * HOUR_MS));
    let dropped = await this.partitions.drop("UsageMinutePair", pairsBefore);
    dropped += await this.partitions.drop("UsageMinute", now - o.minutesRetentionMs);
    dropped += await this.partitions.drop("UsageDenialMinute", pairsBefore);
    dropped += await this.partitions.drop("UsageHour", now - o.hoursRetentionMs);
    dropped += await this.partitions.drop("UsageDenialHour", now - o.hoursRetentionMs);
    dropped += await this.partitions.drop("UsageDay", now - (o.daysRetentionMs ?? 3 * 365 * DAY_MS));
    await this.lease.setIfHolder(this.keys.retention, String(now));
    return dropped;
  }
}
