// One time unit for the whole burst chart axis (never "1s" beside "1100ms"), picked from
// the simulated span, with the unit named once in the axis label.

export interface AxisUnit {
  name: "ms" | "s" | "min" | "h";
  ms: number;
}

const UNITS: readonly AxisUnit[] = [
  { name: "h", ms: 3_600_000 },
  { name: "min", ms: 60_000 },
  { name: "s", ms: 1_000 },
  { name: "ms", ms: 1 },
];

/** The largest unit of which the span holds at least two. */
export function axisUnit(spanMs: number): AxisUnit {
  return UNITS.find((u) => spanMs >= 2 * u.ms) ?? { name: "ms", ms: 1 };
}

/** A time in the unit, with at most two decimals and no trailing zeros ("1.1", "0.25"). */
export function inUnit(ms: number, unit: AxisUnit): string {
  return String(Math.round((ms / unit.ms) * 100) / 100);
}
