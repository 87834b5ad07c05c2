import "server-only";
import { createRedis, hotPathOptions, type RedisClient } from "@/lib/shared/redis/redis";
import { UsageBatch } from "@/lib/usage/record/batch";
import { CredentialUse, type CredentialKind } from "@/lib/usage/record/credential-use";
import { writeBatch, type FlushSettings } from "@/lib/usage/record/flush";
import { lastUsedKey, subjectSecondsKey } from "@/lib/usage/keys";
import { SubjectSeries, type SeriesWrite } from "@/lib/usage/subject-series";
import { ROLLUP_READ_MARGIN_MS, usageSettings } from "@/lib/usage/settings";
import type { UsageEvent } from "@/lib/usage/types";
import type { LeaseRelease } from "@/lib/check/decision-sink";
import { wallNow } from "@/lib/shared/wall-clock";
import { globalSingleton } from "@/lib/shared/global-singleton";

// Counts every decision in process and flushes once a second in one pipeline. A check never
// waits for Redis here: record() is synchronous, and a failed flush drops its batch (counted
// in stats() and logged at most every 10 s) instead of retrying into unbounded memory.

export interface RecorderOptions {
  redis: () => RedisClient;
  ns: string;
  enabled: boolean;
  secondsRetentionMs: number;
  /** injectable for tests that cross minute boundaries without waiting */
  clock?: () => number;
  flushMs?: number;
  topOffenders?: number;
  maxFields?: number;
  maxSubjects?: number;
  log?: (message: string) => void;
  /** record per-subject series for the what-if replay (default true; the bench compares off) */
  subjectSeries?: boolean;
  /** hold batches while the client is not connected (default); false drops them at once */
  waitForReady?: boolean;
}

export interface RecorderStats {
  recorded: number;
  flushes: number;
  failedFlushes: number;
  droppedEvents: number;
}

export class UsageRecorder {
  private batch: UsageBatch;
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastLog = 0;
  private stopping = false;
  private readonly credentials = new CredentialUse();
  /** per-subject series for the what-if replay (subject-series.ts) */
  private readonly series: SubjectSeries | undefined;
  private readonly counters: RecorderStats = { recorded: 0, flushes: 0, failedFlushes: 0, droppedEvents: 0 };

  constructor(private readonly options: RecorderOptions) {
    this.series = options.subjectSeries === false ? undefined : new SubjectSeries();
    this.batch = this.newBatch();
  }

  private newBatch(): UsageBatch {
    return new UsageBatch({
      maxFields: this.options.maxFields ?? 50_000,
      maxSubjects: this.options.maxSubjects ?? 1_000,
    });
  }

  record(event: UsageEvent): void {
    if (!this.options.enabled) return;
    const now = (this.options.clock ?? wallNow)();
    this.batch.add(event, now);
    if (event.subject !== null) this.series?.add(event.tenantId, event.route ?? "", event.subject, now);
  }

  /** Counts a lease released before its expiry: released now, its expiry taken off at dueMs. */
  leaseReleased(release: LeaseRelease): void {
    if (!this.options.enabled) return;
    this.batch.addRelease(release, (this.options.clock ?? wallNow)());
  }

  /** Notes a use of an API key or service token (at most once a minute each, in memory). */
  used(kind: CredentialKind, id: string): void {
    if (!this.options.enabled) return;
    this.credentials.mark(kind, id, (this.options.clock ?? wallNow)());
  }

  /** Writes what was counted so far. One flush at a time: a slow one lets counts gather. */
  async flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.batch.empty && this.credentials.empty && !this.series?.pending) return;
    // While the connection is (re)connecting, keep counting: the batch is bounded by maxFields.
    const client = this.options.redis();
    if (this.options.waitForReady !== false && client.status !== "ready") {
      if (client.status === "wait") void client.connect().catch(() => undefined);
      return;
    }
    const batch = this.batch;
    this.batch = this.newBatch();
    const series = this.series?.drain((this.options.clock ?? wallNow)(), this.stopping) ?? [];
    this.counters.recorded += batch.events;
    this.counters.droppedEvents += batch.dropped;
    const uses = this.credentials.drain();
    this.flushing = Promise.all([
      batch.empty ? undefined : writeBatch(client, this.settings(), batch),
      Object.keys(uses).length > 0 ? client.hset(lastUsedKey(this.options.ns), uses) : undefined,
      series.length > 0 ? this.writeSeries(client, series) : undefined,
    ])
      .then(() => {
        this.counters.flushes++;
      })
      .catch((error: unknown) => {
        this.counters.failedFlushes++;
        this.counters.droppedEvents += batch.events;
        this.warn(`usage flush failed, ${batch.events} decisions not counted: ${String(error)}`);
      })
      .finally(() => {
        this.flushing = null;
      });
    return this.flushing;
  }

  /** One HSET and EXPIRE per tenant-minute (each on its tenant's slot on a Cluster). */
  private async writeSeries(client: RedisClient, writes: SeriesWrite[]): Promise<void> {
    const ttl = this.settings().ttlSeconds;
    await Promise.all(
      writes.map(async (w) => {
        const key = subjectSecondsKey(this.options.ns, w.tenantId, w.minute);
        await client.hset(key, w.field, w.value);
        await client.expire(key, ttl);
      }),
    );
  }

  start(): void {
    if (this.timer || !this.options.enabled) return;
    this.options.redis(); // connect now: the first flush must not find the socket still opening
    this.timer = setInterval(() => void this.flush(), this.options.flushMs ?? 1_000);
    this.timer.unref();
  }

  /**
   * Stops the timer and writes everything counted (shutting down: no count may be lost),
   * waiting up to `deadlineMs` for a flush under way or a connection still opening.
   */
  async stop(deadlineMs = 1_000): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopping = true; // the subject series' partial minutes are written now too
    const until = Date.now() + deadlineMs;
    while ((!this.batch.empty || this.series?.pending || this.flushing) && Date.now() < until) {
      await this.flush();
      if (!this.batch.empty || this.series?.pending) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  stats(): RecorderStats {
    return { ...this.counters };
  }

  private settings(): FlushSettings {
    return {
      ns: this.options.ns,
      ttlSeconds: Math.ceil((this.options.secondsRetentionMs + ROLLUP_READ_MARGIN_MS) / 1_000),
      topOffenders: this.options.topOffenders ?? 50,
      nowMs: (this.options.clock ?? wallNow)(),
    };
  }

  private warn(message: string): void {
    const now = Date.now();
    if (now - this.lastLog < 10_000) return;
    this.lastLog = now;
    (this.options.log ?? console.warn)(`[sluice] ${message}`);
  }
}

// its own fail-fast connection: a dead Redis must not queue flushes behind other work
const recorderRedis = globalSingleton<RedisClient>("sluiceUsageRedis", () =>
  createRedis({ ...hotPathOptions, enableAutoPipelining: false }),
);

const recorder = globalSingleton<UsageRecorder>("sluiceUsageRecorder", () => {
  const settings = usageSettings();
  return new UsageRecorder({
    redis: () => recorderRedis.get(),
    ns: settings.ns,
    enabled: settings.recording,
    secondsRetentionMs: settings.secondsRetentionMs,
  });
});

/** Closes the recorder's own connection (after stop(), at shutdown). */
export function closeRecorderConnection(): void {
  recorderRedis.peek()?.disconnect();
  recorderRedis.set(undefined);
}

/** The process-wide recorder /api/check reports to (started by startUsageJobs). */
export function usageRecorder(): UsageRecorder {
  return recorder.get();
}
