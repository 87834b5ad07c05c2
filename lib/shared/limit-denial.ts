import { z } from "zod";
import { LIMIT_BY } from "@/lib/shared/limit-types";

// Rejections counted by the limit that denied them: what the recorder writes to Redis, the
// rollup stores in PostgreSQL and the limit tree reads. Pure: the recorder, the rollup, the
// data layer and the readers share these rules.

export const DenyingLimit = z.object({
  name: z.string().min(1),
  level: z.enum(["plan", "route", "tenant", "key"]),
  by: z.enum(LIMIT_BY),
});
export type DenyingLimit = z.infer<typeof DenyingLimit>;

export interface LimitDenial extends DenyingLimit {
  /** the key's id, "" for checks without a key, OTHER for the rows past the cap */
  keyId: string;
  /** the route pattern the check resolved to, "" for none, OTHER past the cap */
  route: string;
  count: number;
}

/** keyId and route of the row a limit's denials past the cap are counted under. */
export const OTHER = "*";

/**
 * Rows one tenant may store per minute and per hour (the busiest rows; the rest summed per
 * limit under keyId and route OTHER): a tenant whose every key meets its own limit still
 * writes a bounded number of rows.
 */
export const DENIAL_ROWS_CAP = 1_000;

function idOf(d: Omit<LimitDenial, "count">): string {
  return JSON.stringify([d.keyId, d.route, d.name, d.level, d.by]);
}

/** Denials summed per (key, route, limit): several stores' or minutes' lists as one. */
export function mergeDenials(...lists: ReadonlyArray<readonly LimitDenial[]>): LimitDenial[] {
  const summed = new Map<string, LimitDenial>();
  for (const list of lists) {
    for (const d of list) {
      const id = idOf(d);
      const row = summed.get(id);
      if (row) row.count += d.count;
      else summed.set(id, { ...d });
    }
  }
  return [...summed.values()];
}

/**
 * At most `cap` rows of one tenant kept as they are (the largest counts; ties by id, so a
 * re-run keeps the same ones), the rest summed per limit under keyId and route OTHER.
 * Every rejection still counts once, under its own limit.
 */
export function capDenials(rows: readonly LimitDenial[], cap: number = DENIAL_ROWS_CAP): LimitDenial[] {
  const merged = mergeDenials(rows);
  if (merged.length <= cap) return merged;
  const ordered = merged
    .map((d) => ({ d, id: idOf(d) }))
    .sort((a, b) => b.d.count - a.d.count || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const rest = ordered.slice(cap).map(({ d }) => ({ ...d, keyId: OTHER, route: OTHER }));
  return mergeDenials(
    ordered.slice(0, cap).map(({ d }) => d),
    rest,
  );
}

const Field = z.tuple([
  z.string(),
  z.string(),
  DenyingLimit.shape.name,
  DenyingLimit.shape.level,
  DenyingLimit.shape.by,
]);

/** A field of the Redis denials hash (keys.ts, limitDenialField) and its count; null if not ours. */
export function parseDenialField(field: string, raw: string): LimitDenial | null {
  const count = Number(raw);
  if (!Number.isSafeInteger(count) || count <= 0) return null;
  try {
    const parsed = Field.safeParse(JSON.parse(field));
    if (!parsed.success) return null;
    const [keyId, route, name, level, by] = parsed.data;
    return { keyId, route, name, level, by, count };
  } catch {
    // a field not written by flush.ts: skipped
    return null;
  }
}
