import "server-only";
import type { z } from "zod";

// The ops tools' pages read their form from the URL (a GET form: shareable, and the back
// button works). Empty fields are left out; the rest is validated by the DAL's own schema.

export type SearchParams = Record<string, string | string[] | undefined>;

export type ParsedParams<T> =
  | { kind: "empty" }
  | { kind: "ok"; query: T }
  | { kind: "invalid"; errors: { path: string; message: string }[] };

export function parseCheckParams<S extends z.ZodType>(
  schema: S,
  tenant: string,
  params: SearchParams,
  fields: readonly string[],
): ParsedParams<z.output<S>> {
  const given: Record<string, string> = {};
  for (const field of fields) {
    const value = params[field];
    const text = Array.isArray(value) ? value[0] : value;
    if (text !== undefined && text.trim() !== "") given[field] = text.trim();
  }
  if (Object.keys(given).length === 0 && params.go === undefined) return { kind: "empty" };
  const parsed = schema.safeParse({ tenant, ...given });
  if (parsed.success) return { kind: "ok", query: parsed.data };
  return {
    kind: "invalid",
    errors: parsed.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message })),
  };
}

/** Every route pattern a check of this tenant can resolve to: the tenant's, then the global ones. */
export function routePatterns(
  own: readonly { pattern: string }[],
  global: readonly { pattern: string }[],
): string[] {
  return [...new Set([...own, ...global].map((r) => r.pattern))];
}
