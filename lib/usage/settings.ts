import "server-only";
import { env } from "@/lib/shared/env";

// Usage settings read once from lib/shared/env, in the units the modules use.

export interface UsageSettings {
  /** key namespace (the deployment's REDIS_PREFIX); tests pass their own */
  ns: string;
  recording: boolean;
  secondsRetentionMs: number;
  minutesRetentionMs: number;
  hoursRetentionMs: number;
  daysRetentionMs: number;
  /** the minutes' key x route pairs: the hour rollup's source, and pair reads of recent minutes */
  pairMinutesRetentionMs: number;
}

export function usageSettings(): UsageSettings {
  const e = env();
  return {
    ns: e.REDIS_PREFIX,
    recording: e.SLUICE_USAGE_RECORDING === "on",
    secondsRetentionMs: e.SLUICE_USAGE_SECONDS_RETENTION * 1_000,
    minutesRetentionMs: e.SLUICE_USAGE_MINUTES_RETENTION * 1_000,
    hoursRetentionMs: e.SLUICE_USAGE_HOURS_RETENTION * 1_000,
    daysRetentionMs: e.SLUICE_USAGE_DAYS_RETENTION * 1_000,
    pairMinutesRetentionMs: e.SLUICE_USAGE_PAIR_MINUTES_RETENTION * 1_000,
  };
}

/** Minute hashes outlive the seconds retention by this much, so a late rollup still reads them. */
export const ROLLUP_READ_MARGIN_MS = 15 * 60_000;
