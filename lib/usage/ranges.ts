// The dashboard's time ranges and the step each is drawn at (isomorphic: the range picker
// imports it). Finer steps read Redis seconds; 5 min reads minute rows; 1 h and up hours.

export const RANGES = {
  "15m": { label: "15 min", rangeMs: 15 * 60_000, stepMs: 5_000 },
  "1h": { label: "1 h", rangeMs: 3_600_000, stepMs: 15_000 },
  "24h": { label: "24 h", rangeMs: 86_400_000, stepMs: 300_000 },
  "7d": { label: "7 d", rangeMs: 7 * 86_400_000, stepMs: 3_600_000 },
  "30d": { label: "30 d", rangeMs: 30 * 86_400_000, stepMs: 6 * 3_600_000 },
} as const;

export type RangeId = keyof typeof RANGES;

export const RANGE_IDS = ["15m", "1h", "24h", "7d", "30d"] as const satisfies readonly RangeId[];

export function isRangeId(value: unknown): value is RangeId {
  return typeof value === "string" && value in RANGES;
}

/** The keys page's ranges, its default (1 h) first. */
export const KEY_RANGE_IDS = ["1h", "15m", "24h", "7d", "30d"] as const satisfies readonly RangeId[];
