import "server-only";
import { setDecisionSink } from "@/lib/check/decision-sink";
import { usageSettings } from "@/lib/usage/settings";
import { usageSink } from "@/lib/usage/record/decision-sink";
import { closeRecorderConnection, usageRecorder } from "@/lib/usage/record/process-recorder";
import { startMemoryJob } from "@/lib/usage/record/tenant-memory";
import { globalSlot } from "@/lib/shared/global-singleton";
import { startPeriodicTask } from "@/lib/shared/periodic-task";
import { redis } from "@/lib/shared/redis/redis";
import { refreshPartitionHealth } from "@/lib/usage/partition-health";
import { checkMetrics } from "@/lib/check/check-metrics";
import { HealthPublisher } from "@/lib/check/health/health-publisher";

/** How often a front publishes its check health summary (the console reads per minute). */
const HEALTH_EVERY_MS = 10_000;
/** The last summary at a stop may wait this long for Redis, no longer. */
const LAST_HEALTH_MS = 500;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

// Started once per check front (lib/server/front.ts): plugs the recorder into /api/check's
// decision sink and starts its 1 s flush; publishes the front's check health per minute
// (lib/check/health/, recorded even with usage recording off); reads the tenants' Redis memory figures (measured
// in the app process, lib/usage/store/jobs.ts) for /api/metrics. Nothing here reaches
// PostgreSQL: rollups run in the app process.

export interface UsageRecording {
  /** Writes what was counted so far. */
  flush(): Promise<void>;
  /** Stops recording; the last counts get up to `flushDeadlineMs` (default 1 s) to be written. */
  stop(flushDeadlineMs?: number): Promise<void>;
}

const running = globalSlot<UsageRecording>("sluiceUsageRecording");

export function startUsageRecording(options: {
  /** tenant id -> slug, for the per-tenant memory gauge (tenant-memory.ts) */
  tenantSlugs?: () => Readonly<Record<string, string>>;
}): UsageRecording {
  const started = running.peek();
  if (started) return started;
  const settings = usageSettings();
  const recorder = usageRecorder();
  setDecisionSink(usageSink(recorder));
  recorder.start();
  const memory = startMemoryJob({ prefix: settings.ns, slugById: options.tenantSlugs, measure: false });
  // partitions the rollup (app process) could not create: counted in Redis, copied for /api/metrics here
  const partitionTask = startPeriodicTask("usage partitions", 30_000, () =>
    refreshPartitionHealth(redis(), settings.ns),
  );
  const health = new HealthPublisher({
    redis,
    prefix: settings.ns,
    read: () => checkMetrics.healthFigures(),
  });
  const healthTask = startPeriodicTask("check health", HEALTH_EVERY_MS, () => health.publish());
  const startedUsageRecording: UsageRecording = {
    flush: () => recorder.flush(),
    async stop(flushDeadlineMs) {
      partitionTask.stop();
      healthTask.stop();
      // the last figures of this front, so a restart leaves no gap in the minute
      await Promise.race([health.publish().catch(() => undefined), sleep(LAST_HEALTH_MS)]);
      await memory.stop();
      await recorder.stop(flushDeadlineMs);
      const { recorded, droppedEvents, failedFlushes } = recorder.stats();
      if (droppedEvents > 0 || failedFlushes > 0) {
        console.warn(
          `[sluice] usage: ${droppedEvents} of ${recorded} decisions not counted (${failedFlushes} failed flushes)`,
        );
      }
      closeRecorderConnection();
      running.set(undefined);
    },
  };
  running.set(startedUsageRecording);
  return startedUsageRecording;
}
