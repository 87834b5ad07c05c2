import "server-only";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { redis } from "@/lib/shared/redis/redis";
import { moveLastUsed } from "@/lib/usage/store/last-used-job";
import { UsageRollup } from "@/lib/usage/store/rollup";
import { packCompletePartitions } from "@/lib/usage/store/pack-job";
import { usageSettings } from "@/lib/usage/settings";
import { closeRecorderConnection } from "@/lib/usage/record/process-recorder";
import { startMemoryJob } from "@/lib/usage/record/tenant-memory";
import { startPeriodicTask } from "@/lib/shared/periodic-task";
import { globalSlot } from "@/lib/shared/global-singleton";

// Started once per app process (server-app.ts), off the check path: the rollup loop, which
// every server runs but only the lease holder acts on; keys' last use into PostgreSQL; and
// the per-tenant Redis memory pass (tenant-memory.ts). The fronts count decisions
// (lib/usage/record/recording.ts).

export interface UsageJobs {
  /** Stops the jobs and releases the rollup lease. */
  stop(): Promise<void>;
}

const running = globalSlot<UsageJobs>("sluiceUsageJobs");

export interface UsageJobOptions {
  rollupEveryMs?: number;
}

const PACK_EVERY_MS = 10 * 60_000;

export function startUsageJobs(options: UsageJobOptions = {}): UsageJobs {
  const started = running.peek();
  if (started) return started;
  const settings = usageSettings();
  const rollup = new UsageRollup({
    client: redis(),
    ns: settings.ns,
    owner: `${hostname()}:${process.pid}:${randomUUID()}`,
    secondsRetentionMs: settings.secondsRetentionMs,
    minutesRetentionMs: settings.minutesRetentionMs,
    hoursRetentionMs: settings.hoursRetentionMs,
    daysRetentionMs: settings.daysRetentionMs,
    pairMinutesRetentionMs: settings.pairMinutesRetentionMs,
  });
  // Redis or PostgreSQL away: the rollup tries again at the next tick.
  const rollupTask = startPeriodicTask("usage rollup", options.rollupEveryMs ?? 5_000, () =>
    rollup.runOnce(),
  );
  // complete partitions' keys rebuilt packed, by the rollup's lease holder, beside the rollup
  const packTask = startPeriodicTask("usage partition packing", PACK_EVERY_MS, async () => {
    if (await rollup.lease.held()) await packCompletePartitions({ client: redis(), ns: settings.ns });
  });
  // keys' and service tokens' last use, flushed to Redis by the recorders, into PostgreSQL
  const lastUsedTask = startPeriodicTask("last used", options.rollupEveryMs ?? 5_000, () =>
    moveLastUsed(redis(), settings.ns),
  );
  // measured here (the scan stays off the check path); the fronts read it for /api/metrics
  const memory = startMemoryJob({ prefix: settings.ns, measure: true });
  const startedUsageJobs: UsageJobs = {
    async stop() {
      rollupTask.stop();
      packTask.stop();
      lastUsedTask.stop();
      await memory.stop();
      closeRecorderConnection();
      // another server's rollup takes over at once instead of when the lease expires
      await rollup.lease.release().catch(() => undefined);
      running.set(undefined);
    },
  };
  running.set(startedUsageJobs);
  return startedUsageJobs;
}
