import { routeLabel } from "@/lib/shared/usage-route";
import { addCounts, ZERO_COUNTS, type BreakdownRow, type Counts, type UsagePoint } from "@/lib/usage/types";

// Shaping usage rows into what the API and the charts draw: a series of buckets and
// breakdowns by key or route. Pure: the rows come from lib/usage/read/scoped-reader.ts.

export interface ShapeableRow extends Counts {
  t: number;
  keyId: string;
  route: string;
}

export const NO_KEY = "(no key)";

export function toSeries(
  rows: readonly ShapeableRow[],
  from: number,
  to: number,
  stepMs: number,
): UsagePoint[] {
  const start = Math.floor(from / stepMs) * stepMs;
  const points: UsagePoint[] = [];
  for (let t = start; t < to; t += stepMs) points.push({ t, ...ZERO_COUNTS });
  for (const row of rows) {
    const point = points[Math.floor((row.t - start) / stepMs)];
    if (point) addCounts(point, row);
  }
  return points;
}

const total = (r: Counts) => r.allowed + r.rejected + r.shadowRejected + r.degraded;

/** How many rows a breakdown names; the rest is one "(other)" row. */
export const BREAKDOWN_TOP = 8;

/** Totals by key or by route, the top N by traffic and the rest as one "(other)" row. */
export function breakdown(
  rows: readonly ShapeableRow[],
  by: "key" | "route",
  names: ReadonlyMap<string, string>,
  top = BREAKDOWN_TOP,
): BreakdownRow[] {
  const groups = new Map<string, BreakdownRow>();
  for (const row of rows) {
    const id = by === "key" ? row.keyId : row.route;
    let group = groups.get(id);
    if (!group) {
      const name = by === "route" ? routeLabel(id) : id === "" ? NO_KEY : (names.get(id) ?? id);
      groups.set(id, (group = { name, id, ...ZERO_COUNTS }));
    }
    addCounts(group, row);
  }
  const sorted = [...groups.values()].sort((a, b) => total(b) - total(a) || a.name.localeCompare(b.name));
  if (sorted.length <= top) return sorted;
  const rest: BreakdownRow = { name: "(other)", id: null, ...ZERO_COUNTS };
  for (const row of sorted.slice(top)) addCounts(rest, row);
  return [...sorted.slice(0, top), rest];
}

/** A breakdown with `others` (rows summed before they were shaped: tenants past the top) in "(other)". */
export function withOthers(rows: readonly BreakdownRow[], others: Counts): BreakdownRow[] {
  if (total(others) === 0) return [...rows];
  const last = rows.at(-1);
  const other: BreakdownRow =
    last && last.id === null ? { ...last } : { name: "(other)", id: null, ...ZERO_COUNTS };
  addCounts(other, others);
  return last && last.id === null ? [...rows.slice(0, -1), other] : [...rows, other];
}
