// Turns zod's issues into DocumentErrors with messages a person can act on. Field-specific
// messages live on the schemas (field-schemas.ts); this map covers the generic cases:
// a missing field, a wrong type, an unknown field.

import type { z } from "zod";

import { formatPath, type DocumentError, type PathPart } from "./document-error";

const TYPE_WORDS: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  array: "a list",
  object: "a mapping of fields",
};

function describeInput(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "a list";
  if (typeof input === "object") return "a mapping";
  if (typeof input === "string") return `text "${input}"`;
  return String(input);
}

/** Per-parse error map: used where a schema did not set its own message. */
export const documentErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case "invalid_type": {
      if (issue.input === undefined) return "required";
      const expected = TYPE_WORDS[issue.expected] ?? issue.expected;
      return `must be ${expected}, not ${describeInput(issue.input)}`;
    }
    case "invalid_value":
      return `must be one of ${issue.values.map(String).join(", ")}`;
    case "unrecognized_keys": {
      const shape = (issue.inst as { shape?: Record<string, unknown> } | undefined)?.shape;
      const known = shape ? `; the fields here are ${Object.keys(shape).join(", ")}` : "";
      return `unknown field${known}`;
    }
    default:
      return undefined;
  }
};

function toParts(path: readonly PropertyKey[]): PathPart[] {
  return path.map((part) => (typeof part === "number" ? part : String(part)));
}

/** One DocumentError per issue, and one per unknown field (zod groups those). */
export function issuesToErrors(issues: readonly z.core.$ZodIssue[]): DocumentError[] {
  const errors: DocumentError[] = [];
  for (const issue of issues) {
    const parts = toParts(issue.path);
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        errors.push({ path: formatPath([...parts, key]), message: issue.message });
      }
    } else {
      errors.push({ path: formatPath(parts), message: issue.message });
    }
  }
  return errors;
}
