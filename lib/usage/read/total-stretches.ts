import { DAY_MS, HOUR_MS, MINUTE_MS } from "@/lib/usage/keys";
import type { Marks } from "@/lib/usage/read/rows";

// A range's totals cut into the stretches each store holds completely, coarsest first: whole
// rolled-up days from UsageDay, whole hours at their edges from UsageHour, rolled-up minutes
// at theirs, and what the rollup has not reached yet from Redis. The same cut as the row
// reader's (rows.ts, visitRolledUp) without key x route pairs, for reads that sum many tenants
// in one query instead of a tenant at a time.

export type StretchTable = "minute" | "hour" | "day";

export interface Stretch {
  from: number;
  to: number;
}

export interface TotalStretches {
  /** read from PostgreSQL, each from its table */
  rolled: Array<Stretch & { table: StretchTable }>;
  /** not rolled up yet: Redis' per-second counts */
  recent: Stretch[];
}

const UNIT = { hour: HOUR_MS, day: DAY_MS } as const;

/** `coarsest`: the coarsest table read ("minute" for a series drawn a minute a step). */
export function totalStretches(
  from: number,
  to: number,
  marks: Marks,
  coarsest: StretchTable = "day",
): TotalStretches {
  const out: TotalStretches = { rolled: [], recent: [] };
  const minuteSplit = marks.minute * MINUTE_MS;
  const minutes = (a: number, b: number): void => {
    if (a < Math.min(b, minuteSplit))
      out.rolled.push({ table: "minute", from: a, to: Math.min(b, minuteSplit) });
    const recent = Math.max(a, minuteSplit);
    if (recent < b) out.recent.push({ from: recent, to: b });
  };
  const rolledUp = (grain: "hour" | "day", a: number, b: number): void => {
    if (a >= b) return;
    const unit = UNIT[grain];
    const start = Math.ceil(a / unit) * unit;
    // whole units only, never one counted from two tables (the rest at the finer resolution)
    const split = Math.max(start, Math.min(Math.floor(b / unit) * unit, marks[grain] * unit));
    const finer = (x: number, y: number): void => (grain === "day" ? rolledUp("hour", x, y) : minutes(x, y));
    finer(a, Math.min(b, start));
    if (start < split) out.rolled.push({ table: grain, from: start, to: split });
    finer(Math.max(a, split), b);
  };
  if (coarsest === "minute") minutes(from, to);
  else rolledUp(coarsest, from, to);
  return out;
}
