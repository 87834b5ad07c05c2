import { DenyingLimit } from "@/lib/shared/limit-denial";

// Which limit denied a rejected check, read from the answer's JSON as the check rendered it
// (docs/api.md: every `limits[]` entry starts `{"name":..,"level":..,"by":..,"algorithm":`
// and ends `"allowed":..,"mode":..`). Runs on the check path, for rejections only: two
// string searches and one short slice, no JSON parse (flush parses the few distinct slices).
// The limit named is the first enforce limit that denied, as the decision log's "denied by".

const DENIED = '"allowed":false,"mode":"enforce"';
const ENTRY = '{"name":';
const AFTER_BY = ',"algorithm":';

/** `"<name>","level":"<level>","by":"<by>"` of the first enforce limit that denied, or null. */
export function denyingLimit(body: string | undefined): string | null {
  if (body === undefined) return null;
  const denied = body.indexOf(DENIED);
  if (denied < 0) return null;
  const start = body.lastIndexOf(ENTRY, denied);
  if (start < 0) return null;
  const end = body.indexOf(AFTER_BY, start);
  if (end < 0 || end > denied) return null;
  return body.slice(start + ENTRY.length, end);
}

export { DenyingLimit };

/** The slice denyingLimit() returned, as its parts; null for text it did not make. */
export function parseDenyingLimit(text: string): DenyingLimit | null {
  try {
    const parsed = DenyingLimit.safeParse(JSON.parse(`{"name":${text}}`));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
