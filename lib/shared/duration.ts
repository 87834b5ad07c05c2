// Durations as people write them in config documents ("250ms", "1s", "5m", "1h", "1d" or
// an integer of milliseconds) and back. Isomorphic: the dashboard's forms use it too.
// Range checks (window 1 ms .. 365 d, ...) belong to the callers, which know the field.

export const MS_PER_UNIT = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
} as const;
export type DurationUnit = keyof typeof MS_PER_UNIT;

/** Largest unit first: formatDuration picks the first that divides evenly. */
const UNITS_DESCENDING: readonly DurationUnit[] = ["d", "h", "m", "s", "ms"];

// One unit only: "1m30s" and "1.5s" are rejected rather than guessed at, so a duration
// always reads back exactly as formatDuration writes it.
const DURATION_PATTERN = /^(\d+)(ms|s|m|h|d)?$/;

/**
 * Milliseconds for "250ms" | "1s" | "5m" | "1h" | "1d" | "1500" | 1500, or null when the
 * input is not such a duration (negative, fractional, compound, unknown unit, too large to
 * be exact). Zero parses to 0: callers decide whether zero is allowed.
 */
export function parseDuration(input: string | number): number | null {
  if (typeof input === "number") {
    return Number.isSafeInteger(input) && input >= 0 ? input : null;
  }
  const match = DURATION_PATTERN.exec(input.trim());
  if (!match) return null;
  const amount = Number(match[1]);
  const unit = (match[2] ?? "ms") as DurationUnit;
  const ms = amount * MS_PER_UNIT[unit];
  return Number.isSafeInteger(ms) ? ms : null;
}

/**
 * The shortest exact single-unit spelling: 1000 -> "1s", 90000 -> "90s", 1500 -> "1500ms",
 * 0 -> "0ms". parseDuration(formatDuration(ms)) === ms for every safe integer ms >= 0.
 */
export function formatDuration(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms < 0) {
    throw new RangeError(`formatDuration needs a non-negative integer of milliseconds, got ${ms}`);
  }
  if (ms === 0) return "0ms";
  for (const unit of UNITS_DESCENDING) {
    const size = MS_PER_UNIT[unit];
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}
