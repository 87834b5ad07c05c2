// A field-level diff of two JSON values (an audit entry's before and after): every leaf
// path that was added, removed or changed, like the import preview does for documents.
// Lists of named objects (limits, routes, keys) are keyed by name, so a limit edit reads
// "limits[api].limit: 100 → 200" rather than an index shift of every later entry.

export interface FieldChange {
  path: string;
  before: string | null;
  after: string | null;
}

const MAX_CHANGES = 200;

function idOf(item: unknown): string | null {
  if (item && typeof item === "object" && !Array.isArray(item)) {
    const o = item as Record<string, unknown>;
    for (const k of ["name", "pattern", "slug", "email"]) if (typeof o[k] === "string") return o[k];
  }
  return null;
}

function flatten(value: unknown, path: string, out: Map<string, string>): void {
  if (Array.isArray(value)) {
    const named = value.length > 0 && value.every((v) => idOf(v) !== null);
    if (value.length === 0) out.set(path, "[]");
    value.forEach((v, i) => flatten(v, `${path}[${named ? idOf(v) : i}]`, out));
  } else if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) out.set(path, "{}");
    for (const [k, v] of entries) flatten(v, path ? `${path}.${k}` : k, out);
  } else if (value !== undefined) {
    out.set(path, JSON.stringify(value));
  }
}

export function fieldDiff(before: unknown, after: unknown): FieldChange[] {
  const a = new Map<string, string>();
  const b = new Map<string, string>();
  flatten(before ?? undefined, "", a);
  flatten(after ?? undefined, "", b);
  const changes: FieldChange[] = [];
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    const was = a.get(path) ?? null;
    const now = b.get(path) ?? null;
    if (was !== now) changes.push({ path: path || "(value)", before: was, after: now });
    if (changes.length >= MAX_CHANGES) break;
  }
  return changes;
}

/** "limits[api].limit, limits[api].window" → the objects changed, for the log's summary line. */
export function changedObjects(changes: readonly FieldChange[], max = 3): string {
  const objects = [...new Set(changes.map((c) => c.path.replace(/\.[^.[\]]+$/, "")))];
  const shown = objects.slice(0, max).join(", ");
  return objects.length > max ? `${shown} and ${objects.length - max} more` : shown;
}
