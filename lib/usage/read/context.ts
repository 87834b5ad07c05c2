import "server-only";
import { redis } from "@/lib/shared/redis/redis";
import type { RowContext } from "@/lib/usage/read/rows";
import { usageSettings } from "@/lib/usage/settings";

// What queries read with: the control client, the namespace and the time now.
export function rowContext(now: number = Date.now()): RowContext {
  const settings = usageSettings();
  return { client: redis(), ns: settings.ns, now, secondsRetentionMs: settings.secondsRetentionMs };
}
