// Undoing one recorded change (its before and after) on today's value, three ways: what the
// change did is put back only where nothing has changed it since. Objects are merged field
// by field; lists of named things (limits by name, routes by pattern, plans by name) item by
// item, so a later edit of another limit does not stand in the way. Anything the change
// touched that differs today is a conflict, and then nothing is applied. Isomorphic.

export interface RevertConflict {
  /** where, e.g. `keys[name=backend].limits[name=api].limit` */
  path: string;
  /** the value today */
  now: unknown;
  /** what the change made it */
  changedTo: unknown;
  /** what reverting would set */
  revertsTo: unknown;
}

export type RevertOutcome = { ok: true; value: unknown } | { ok: false; conflicts: RevertConflict[] };

const ID_FIELDS = ["name", "pattern", "slug"] as const;

/** JSON with keys in one order, so equal values compare equal whatever their key order. */
export function stableJson(value: unknown): string {
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (isRecord(value))
    return `{${Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson(value[k])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

const same = (a: unknown, b: unknown): boolean => stableJson(a ?? undefined) === stableJson(b ?? undefined);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The field naming each item of every given list, when all items have one. */
function identityOf(lists: unknown[][]): (typeof ID_FIELDS)[number] | null {
  const items = lists.flat();
  return ID_FIELDS.find((f) => items.every((i) => isRecord(i) && typeof i[f] === "string")) ?? null;
}

export function revertValue(current: unknown, before: unknown, after: unknown): RevertOutcome {
  const conflicts: RevertConflict[] = [];
  const value = revert(current, before, after, "", conflicts);
  return conflicts.length > 0 ? { ok: false, conflicts } : { ok: true, value };
}

function revert(cur: unknown, before: unknown, after: unknown, path: string, out: RevertConflict[]): unknown {
  if (same(before, after) || same(cur, before)) return cur;
  if (same(cur, after)) return before ?? undefined;
  if (isRecord(cur) && isRecord(before) && isRecord(after)) {
    const merged: Record<string, unknown> = {};
    for (const key of new Set([...Object.keys(cur), ...Object.keys(before), ...Object.keys(after)])) {
      const v = revert(cur[key], before[key], after[key], path ? `${path}.${key}` : key, out);
      if (v !== undefined) merged[key] = v;
    }
    return merged;
  }
  if (Array.isArray(cur) && Array.isArray(before) && Array.isArray(after)) {
    const field = identityOf([cur, before, after]);
    if (field) return revertList(cur, before, after, field, path, out);
  }
  out.push({
    path: path || "(whole)",
    now: cur ?? null,
    changedTo: after ?? null,
    revertsTo: before ?? null,
  });
  return cur;
}

type Item = Record<string, unknown>;

function revertList(
  cur: unknown[],
  before: unknown[],
  after: unknown[],
  field: string,
  path: string,
  out: RevertConflict[],
): unknown[] {
  const id = (item: unknown): string => String((item as Item)[field]);
  const was = new Map(before.map((i) => [id(i), i]));
  const made = new Map(after.map((i) => [id(i), i]));
  const result: unknown[] = [];
  const at = (key: string) => `${path}[${field}=${key}]`;
  for (const item of cur) {
    const v = revert(item, was.get(id(item)), made.get(id(item)), at(id(item)), out);
    if (v !== undefined) result.push(v);
  }
  // items the change removed (or that are gone since) come back after their old neighbour
  const present = new Set(cur.map(id));
  before.forEach((item, index) => {
    const key = id(item);
    if (present.has(key)) return;
    const v = revert(undefined, item, made.get(key), at(key), out);
    if (v === undefined) return;
    const previous = index > 0 ? id(before[index - 1]) : null;
    const where = previous === null ? -1 : result.findIndex((r) => id(r) === previous);
    result.splice(where + 1, 0, v);
  });
  return result;
}

/** One line per conflict, for messages. */
export function describeConflicts(conflicts: readonly RevertConflict[]): string {
  const short = (v: unknown) => {
    const text = v === null ? "absent" : JSON.stringify(v);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  };
  return conflicts
    .map((c) => `${c.path}: now ${short(c.now)}, this change made it ${short(c.changedTo)}`)
    .join("; ");
}
