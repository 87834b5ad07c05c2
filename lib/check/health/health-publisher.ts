import "server-only";
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import type { RedisClient } from "@/lib/shared/redis/redis";
import { addFigures, figuresSince, zeroFigures, type HealthFigures } from "@/lib/check/health/health-figures";
import { HEALTH_KEEP_MINUTES, healthMinuteKey } from "@/lib/check/health/health-keys";

// Each front process publishes its own per-minute summary of the check endpoint's health
// (latency buckets, decisions, degraded answers by cause, errors, late answers) to Redis,
// where the console sums the fronts. It reads the process's metrics cells every few
// seconds, so the check path pays nothing: no work per check beyond the counters it
// already keeps for /api/metrics. A reading's increase goes to the minute the reading is
// taken in, so a minute's figures are exact to within one interval at its edges.

export interface HealthPublisherOptions {
  redis: () => RedisClient;
  prefix: string;
  /** this process's cumulative figures (checkMetrics.healthFigures) */
  read: () => HealthFigures;
  clock?: () => number;
  /** this process's field in the minute's hash */
  id?: string;
}

export class HealthPublisher {
  private previous: HealthFigures;
  /** minute -> this process's figures so far in it (the current minute and the one before) */
  private readonly minutes = new Map<number, HealthFigures>();
  readonly id: string;

  constructor(private readonly options: HealthPublisherOptions) {
    this.previous = options.read();
    this.id = options.id ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  }

  /** Takes a reading and writes the minutes it touched. */
  async publish(): Promise<void> {
    const now = this.options.read();
    const minute = Math.floor((this.options.clock ?? Date.now)() / 60_000);
    const delta = figuresSince(now, this.previous);
    this.previous = now;
    const figures = this.minutes.get(minute) ?? zeroFigures();
    this.minutes.set(minute, addFigures(figures, delta));
    // a finished minute is written once more (its last reading), then forgotten
    for (const old of this.minutes.keys()) if (old < minute - 1) this.minutes.delete(old);
    const pipe = this.options.redis().pipeline();
    for (const [m, f] of this.minutes) {
      const key = healthMinuteKey(this.options.prefix, m);
      pipe.hset(key, this.id, JSON.stringify(f));
      pipe.expire(key, HEALTH_KEEP_MINUTES * 60);
    }
    const replies = await pipe.exec();
    const failed = replies?.find(([error]) => error);
    if (failed?.[0]) throw failed[0];
  }
}
