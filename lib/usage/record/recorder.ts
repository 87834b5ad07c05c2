import "server-only";
import type { RedisClient } from "@/lib/shared/redis/redis";
import { UsageBatch } from "@/lib/usage/record/batch";
import { CredentialUse, type CredentialKind } from "@/lib/usage/record/credential-use";
import type { FlushSettings } from "@/lib/usage/record/flush";
import { unitsIndex, writeQueues, type Sender } from "@/lib/usage/record/flush-units";
import { UnsentUnits } from "@/lib/usage/record/unsent-units";
import { recorderMetrics } from "@/lib/usage/record/recorder-metrics";
import { randomBytes } from "node:crypto";
import { lastUsedKey, subjectSecondsKey } from "@/lib/usage/keys";
import { SubjectSeries, type SeriesWrite } from "@/lib/usage/subject-series";
import { ROLLUP_READ_MARGIN_MS } from "@/lib/usage/settings";
import type { UsageEvent } from "@/lib/usage/types";
import type { LeaseRelease } from "@/lib/check/decision-sink";
import { wallNow } from "@/lib/shared/wall-clock";

// Counts every decision in process and flushes once a second. A check never waits for Redis
// here: record() is synchronous. A tenant's counts that a flush could not write are sent
// again with the next flushes (flush-units.ts: each lands once), for up to RETRY_MS and
// within maxFields counters held; past either they are dropped, counted in stats() and
// /api/metrics, and logged at most every 10 s, so memory stays bounded whatever Redis does.

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
  /** tenant units sent again after a failed flush */
  retriedUnits: number;
  /** decisions counted but not written yet (waiting for a retry) */
  pendingEvents: number;
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
  private readonly counters: RecorderStats = {
    recorded: 0,
    flushes: 0,
    failedFlushes: 0,
    droppedEvents: 0,
    retriedUnits: 0,
    pendingEvents: 0,
  };
  /** what a flush could not write, sent again with the next one */
  private readonly unsent: UnsentUnits;
  /** this recorder's field in the tenants' flush markers, and its last unit number */
  private readonly recorderId = randomBytes(9).toString("base64url");
  private seq = 0;

  constructor(private readonly options: RecorderOptions) {
    this.series = options.subjectSeries === false ? undefined : new SubjectSeries();
    this.unsent = new UnsentUnits(options.maxFields ?? 50_000, (events) => this.dropped(events));
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
    if (this.batch.empty && this.unsent.empty && this.credentials.empty && !this.series?.pending) return;
    // While the connection is (re)connecting, keep counting: the batch is bounded by maxFields.
    const client = this.options.redis();
    if (this.options.waitForReady !== false && client.status !== "ready") {
      if (client.status === "wait") void client.connect().catch(() => undefined);
      return;
    }
    const batch = this.batch;
    this.batch = this.newBatch();
    const nowMs = (this.options.clock ?? wallNow)();
    const series = this.series?.drain(nowMs, this.stopping) ?? [];
    this.counters.recorded += batch.events;
    this.dropped(batch.dropped);
    const retried = this.unsent.size;
    const { queues, index: unsentIndex } = this.unsent.take(
      batch.tenants,
      (t) => batch.recent.drainTenant(t),
      nowMs,
    );
    const held = [...queues.values()].flatMap((q) => [q.sent, q.next]).filter((u) => u !== null);
    const index = unitsIndex(held, copyIndex(unsentIndex));
    this.counters.retriedUnits += retried;
    metrics.retried.value += retried;
    const uses = this.credentials.drain();
    this.flushing = Promise.all([
      writeQueues(this.sender(client), queues, index),
      // last uses and the replay's series are approximate by design: not retried
      Object.keys(uses).length > 0
        ? client
            .hset(lastUsedKey(this.options.ns), uses)
            .catch((e: unknown) => this.warn(`last uses not written: ${String(e)}`))
        : undefined,
      series.length > 0
        ? this.writeSeries(client, series).catch((e: unknown) =>
            this.warn(`replay series not written: ${String(e)}`),
          )
        : undefined,
    ])
      .then(([result]) => {
        const left = [...queues.values()].filter((q) => q.sent || q.next).length;
        if (left === 0 && !result.indexFailed) {
          this.counters.flushes++;
          return;
        }
        this.counters.failedFlushes++;
        this.unsent.keep(queues, (this.options.clock ?? wallNow)());
        // the index of what landed (what is held brings its minutes again when sent)
        if (result.indexFailed) this.unsent.keepIndex(unitsIndex(result.written, unsentIndex));
        this.warn(`usage flush failed for ${left} tenants, sent again: ${String(result.error)}`);
      })
      .finally(() => {
        this.counters.pendingEvents = this.unsent.events;
        metrics.pending.value = this.counters.pendingEvents;
        this.flushing = null;
      });
    return this.flushing;
  }

  private sender(client: RedisClient): Sender {
    return { client, settings: this.settings(), recorderId: this.recorderId, nextSeq: () => ++this.seq };
  }

  private dropped(events: number): void {
    this.counters.droppedEvents += events;
    metrics.dropped.value += events;
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
    const unwritten = (): boolean => !this.batch.empty || !this.unsent.empty || this.series?.pending === true;
    while ((unwritten() || this.flushing) && Date.now() < until) {
      await this.flush();
      if (unwritten()) await new Promise((resolve) => setTimeout(resolve, 20));
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

const metrics = recorderMetrics();

const copyIndex = (index: ReadonlyMap<number, ReadonlySet<string>>): Map<number, Set<string>> =>
  new Map([...index].map(([minute, tenants]) => [minute, new Set(tenants)]));
