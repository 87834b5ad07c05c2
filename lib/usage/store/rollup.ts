import "server-only";
import type { RedisClient } from "@/lib/shared/redis/redis";
import { jobKeys, minuteIndexKey, type JobKeys } from "@/lib/usage/keys";
import { RollupLease } from "@/lib/usage/lease";
import { minuteRows, readMinutes } from "@/lib/usage/store/redis-read";
import {
  deleteExpired,
  LeaseLost,
  writeHour,
  writeMinute,
  type MinuteRow,
} from "@/lib/control/data/usage/rollup-writer";

// Moves completed minutes from Redis into PostgreSQL, then hours from minutes, then sweeps
// old rows. Only the lease holder works. Watermarks (first minute / hour not yet written)
// live next to the lease and advance only while the lease is ours; a minute re-written after
// a crash gets the same absolute totals, so every minute counts once.

export interface RollupOptions {
  client: RedisClient;
  ns: string;
  owner: string;
  secondsRetentionMs: number;
  minutesRetentionMs: number;
  hoursRetentionMs: number;
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
  deletedRows: number;
}

export class UsageRollup {
  readonly lease: RollupLease;
  private readonly keys: JobKeys;

  constructor(private readonly options: RollupOptions) {
    this.keys = jobKeys(options.ns);
    this.lease = new RollupLease(options.client, this.keys, options.owner, options.leaseTtlMs ?? 15_000);
  }

  private now(): number {
    return (this.options.clock ?? Date.now)();
  }

  private async watermark(key: string, fallback: number): Promise<number> {
    const raw = await this.options.client.get(key);
    return raw === null ? fallback : Number(raw);
  }

  async runOnce(): Promise<RollupRun> {
    const run: RollupRun = { held: await this.lease.acquire(), minutes: 0, hours: 0, deletedRows: 0 };
    if (!run.held) return run;
    const now = this.now();
    const held = () => this.lease.held();
    // Without a watermark (first start, flushed Redis) begin with the oldest minute Redis may hold.
    const first = await this.watermark(
      this.keys.minutes,
      Math.floor((now - this.options.secondsRetentionMs) / 60_000),
    );
    const complete = Math.floor((now - (this.options.graceMs ?? 8_000)) / 60_000);
    const last = Math.min(complete, first + (this.options.maxMinutesPerRun ?? 120));
    for (let minute = first; minute < last; minute++) {
      await writeMinute(minute * 60_000, await this.rowsOf(minute), held);
      if (!(await this.lease.setIfHolder(this.keys.minutes, String(minute + 1))))
        throw new LeaseLost("lease lost");
      run.minutes++;
    }
    const done = Math.max(first, last);
    const firstHour = await this.watermark(this.keys.hours, Math.floor(first / 60));
    for (let hour = firstHour; hour < Math.floor(done / 60); hour++) {
      await writeHour(hour * 3_600_000, held);
      if (!(await this.lease.setIfHolder(this.keys.hours, String(hour + 1))))
        throw new LeaseLost("lease lost");
      run.hours++;
    }
    run.deletedRows = await this.sweep(now);
    return run;
  }

  private async rowsOf(minute: number): Promise<MinuteRow[]> {
    const tenants = await this.options.client.smembers(minuteIndexKey(this.options.ns, minute));
    const rows: MinuteRow[] = [];
    for (const tenantId of tenants) {
      const hashes = await readMinutes(this.options.client, this.options.ns, tenantId, [minute]);
      const hash = hashes.get(minute);
      if (hash) rows.push(...minuteRows(tenantId, hash));
    }
    return rows;
  }

  private async sweep(now: number): Promise<number> {
    const last = await this.watermark(this.keys.retention, 0);
    if (now - last < (this.options.retentionEveryMs ?? 600_000)) return 0;
    const deleted = await deleteExpired(
      now - this.options.minutesRetentionMs,
      now - this.options.hoursRetentionMs,
    );
    await this.lease.setIfHolder(this.keys.retention, String(now));
    return deleted.minutes + deleted.hours;
  }
}
