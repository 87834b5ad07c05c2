import "server-only";
import type { LocalCounter } from "@/lib/check/limiter/local/local-counter";
import type { ScriptClient } from "@/lib/shared/redis/script-client";
import { applySyncReply, localSyncScript, syncCall } from "@/lib/check/limiter/local/sync-script";
import type { CounterStore } from "@/lib/check/local/counter-store";

// The sync cycle of local limits: every tick (the smallest syncEvery in use), the counters
// due (used since their last sync, their own syncEvery passed) are pushed to Redis in ONE
// script call per tenant (lua/local-sync.lua; its keys share the tenant's hash tag), which
// answers the converged counts. Off the check path: checks never wait for it. While Redis
// is down calls fail, the counters keep their increments and local limits keep deciding;
// the first sync after Redis returns pushes everything counted meanwhile. The local clock
// follows Redis' (the offset measured on each reply), so windows line up across servers.

/** Counters per call at most: one tenant with very many identities never blocks Redis long. */
const COUNTERS_PER_CALL = 1_000;
const MIN_TICK_MS = 10;

export class SyncCycle {
  private timer: NodeJS.Timeout | null = null;
  private tickMs = Number.POSITIVE_INFINITY;
  private readonly inFlight = new Set<string>();
  private lastError = 0;
  /** Redis time minus local time, from the last reply */
  private offsetMs = 0;
  /** sync calls answered, and failed (tests and metrics) */
  calls = 0;
  failures = 0;

  constructor(
    private readonly store: CounterStore,
    private readonly clients: readonly ScriptClient[],
    private readonly timeoutMs: number,
  ) {}

  /** Local time on Redis' clock (ms). */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** Starts the timer, or quickens it when a counter with a shorter syncEvery appeared. */
  ensureRunning(): void {
    const wanted = Math.max(MIN_TICK_MS, this.store.minSyncEveryMs);
    if (wanted >= this.tickMs) return;
    this.stop();
    this.tickMs = wanted;
    this.timer = setInterval(() => this.tick(), wanted);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.tickMs = Number.POSITIVE_INFINITY;
  }

  /** One round: every due counter, grouped by tenant. */
  tick(): void {
    const { dirty } = this.store;
    if (dirty.size === 0) return;
    const localNow = Date.now();
    const slack = Math.min(this.tickMs, 1_000) / 2;
    const byTenant = new Map<string, LocalCounter[]>();
    for (const counter of dirty) {
      if (counter.sent !== null || this.inFlight.has(counter.tenantId)) continue;
      if (localNow - counter.syncedAt < counter.syncEveryMs - slack) continue;
      let group = byTenant.get(counter.tenantId);
      if (group === undefined) byTenant.set(counter.tenantId, (group = []));
      if (group.length >= COUNTERS_PER_CALL) continue;
      group.push(counter);
    }
    for (const [tenantId, counters] of byTenant) this.send(tenantId, counters);
  }

  private send(tenantId: string, counters: LocalCounter[]): void {
    const client = this.clients.find((candidate) => candidate.ready);
    if (client === undefined) return; // they stay in the sync set for the next tick
    for (const counter of counters) {
      this.store.dirty.delete(counter);
      counter.dirty = false;
    }
    this.inFlight.add(tenantId);
    const { keys, args } = syncCall(counters);
    const sentAt = Date.now();
    let settled = false;
    const finish = (error: Error | null, reply?: unknown): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      this.inFlight.delete(tenantId);
      if (error === null) {
        try {
          const localNow = Date.now();
          const redisNow = applySyncReply(counters, reply, localNow);
          this.offsetMs = redisNow - Math.round((sentAt + localNow) / 2);
          this.calls++;
          return;
        } catch (failure) {
          error = failure as Error;
        }
      }
      this.failed(counters, error);
    };
    // a late reply after the timeout is ignored: its increments are sent again (counted twice,
    // which errs on the side of denying)
    const timer = setTimeout(() => finish(new Error("local sync timed out")), this.timeoutMs);
    timer.unref();
    client.run(localSyncScript(), keys, args, finish);
  }

  private failed(counters: readonly LocalCounter[], error: Error): void {
    this.failures++;
    for (const counter of counters) {
      counter.restore();
      if (!counter.dirty) {
        counter.dirty = true;
        this.store.dirty.add(counter);
      }
    }
    const now = Date.now();
    if (now - this.lastError > 10_000) {
      this.lastError = now;
      console.warn(
        `[sluice] local limits: sync failed, deciding from memory until Redis answers: ${error.message}`,
      );
    }
  }
}
