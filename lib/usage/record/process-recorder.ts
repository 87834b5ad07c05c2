import "server-only";
import { createRedis, hotPathOptions, type RedisClient } from "@/lib/shared/redis/redis";
import { globalSingleton } from "@/lib/shared/global-singleton";
import { UsageRecorder } from "@/lib/usage/record/recorder";
import { usageSettings } from "@/lib/usage/settings";

// The process's one usage recorder, on a Redis connection of its own.

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
