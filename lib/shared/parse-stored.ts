import type { z } from "zod";

// What we read back from PostgreSQL JSON columns, Redis or a JSON text was written by this
// code, but possibly by an older version of it, or changed by hand: it is parsed, never
// cast. A value that does not fit fails loudly, naming the field, instead of travelling on
// as a type it is not.

export class StoredDataError extends Error {
  override name = "StoredDataError";
}

function fieldOf(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "its top level";
  let field = "";
  for (const part of path)
    field += typeof part === "number" ? `[${part}]` : `${field ? "." : ""}${String(part)}`;
  return field;
}

/** The first issue as "<field>: <message>", e.g. `rule.name: Invalid input: expected string`. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "does not fit its schema";
  return `${fieldOf(issue.path)}: ${issue.message}`;
}

/** `value` as `schema` reads it; throws a StoredDataError naming `what` and the field otherwise. */
export function parseStored<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new StoredDataError(`${what} does not fit its schema at ${describeIssue(result.error)}`);
}
