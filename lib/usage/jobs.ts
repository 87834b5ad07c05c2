import "server-only";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { setDecisionSink } from "@/lib/enforce/decision-sink";
import { redis } from "@/lib/redis";
import { usageSink } from "@/lib/usage/decision-sink";
import { closeRecorderConnection, usageRecorder } from "@/lib/usage/recorder";
import { moveLastUsed } from "@/lib/usage/last-used-job";
import { refreshPartitionHealth } from "@/lib/usage/partition-health";
import { UsageRollup } from "@/lib/usage/rollup";
import { usageSettings } from "@/lib/usage/settings";
import { startMemoryJob } from "@/lib/usage/tenant-memory";
import { startPeriodicTask } from "@/lib/shared/periodic-task";

// Started once per server process (server.ts): plugs the recorder into /api/check's decision
// sink, starts its 1 s flush, and the rollup loop, which every server runs but only the
// lease holder acts on; likewise the per-tenant Redis memory pass (tenant-memory.ts).

export interface UsageJobs {
  /** Writes what was counted so far (a no-op where nothing records). */
  flush(): Promise<void>;
  /** Stops the jobs; the last counts get up to `flushDeadlineMs` (default 1 s) to be written. */
  stop(flushDeadlineMs?: number): Promise<void>;
}

const holder = globalThis as unknown as { sluiceUsageJobs?: UsageJobs };

export interface UsageJobOptions {
  rollupEveryMs?: number;
  /** count decisions (where checks are answered: the front process); default true */
  recording?: boolean;
  /** roll minutes into PostgreSQL and measure tenants' Redis memory (off the check path:
   * the app process); default true */
  rollups?: boolean;
  /** tenant id -> slug, for the per-tenant memory gauge (lib/usage/tenant-memory.ts) */
  tenantSlugs?: () => Readonly<Record<string, string>>;
}

export function startUsageJobs(options: UsageJobOptions = {}): UsageJobs {
  if (holder.sluiceUsageJobs) return holder.sluiceUsageJobs;
  const settings = usageSettings();
  const recorder = usageRecorder();
  const recording = options.recording ?? true;
  if (recording) {
    setDecisionSink(usageSink(recorder));
    recorder.start();
  }
  // Rollups run in one process of a server (the app process); the front only counts.
  const rollups = options.rollups ?? true;
  const rollup = rollups
    ? new UsageRollup({
        client: redis(),
        ns: settings.ns,
        owner: `${hostname()}:${process.pid}:${randomUUID()}`,
        secondsRetentionMs: settings.secondsRetentionMs,
        minutesRetentionMs: settings.minutesRetentionMs,
        hoursRetentionMs: settings.hoursRetentionMs,
        daysRetentionMs: settings.daysRetentionMs,
        pairMinutesRetentionMs: settings.pairMinutesRetentionMs,
      })
    : undefined;
  // Redis or PostgreSQL away: the rollup tries again at the next tick.
  const rollupTask = rollup
    ? startPeriodicTask("usage rollup", options.rollupEveryMs ?? 5_000, () => rollup.runOnce())
    : undefined;
  // keys' and service tokens' last use, flushed to Redis by the recorders, into PostgreSQL
  const lastUsedTask = rollups
    ? startPeriodicTask("last used", options.rollupEveryMs ?? 5_000, () => moveLastUsed(redis(), settings.ns))
    : undefined;
  // partitions the rollup could not create: counted in Redis, copied for /api/metrics here
  const partitionTask = startPeriodicTask("usage partitions", 30_000, () =>
    refreshPartitionHealth(redis(), settings.ns),
  );
  // Measured where rollups run (the scan stays off the check path); read for /api/metrics
  // where the tenants' slugs are known (the front, which serves it).
  const memory = startMemoryJob({ prefix: settings.ns, slugById: options.tenantSlugs, measure: rollups });
  holder.sluiceUsageJobs = {
    flush: () => (recording ? recorder.flush() : Promise.resolve()),
    async stop(flushDeadlineMs) {
      rollupTask?.stop();
      lastUsedTask?.stop();
      partitionTask.stop();
      await memory.stop();
      if (recording) {
        await recorder.stop(flushDeadlineMs);
        const { recorded, droppedEvents, failedFlushes } = recorder.stats();
        if (droppedEvents > 0 || failedFlushes > 0) {
          console.warn(
            `[sluice] usage: ${droppedEvents} of ${recorded} decisions not counted (${failedFlushes} failed flushes)`,
          );
        }
      }
      closeRecorderConnection();
      // another server's rollup takes over at once instead of when the lease expires
      await rollup?.lease.release().catch(() => undefined);
      holder.sluiceUsageJobs = undefined;
    },
  };
  return holder.sluiceUsageJobs;
}
