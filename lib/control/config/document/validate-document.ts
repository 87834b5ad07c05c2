// The one entry point for checking a configuration document (import, dashboard forms).
// Two passes: the shape (types, ranges, unknown fields, patterns), then the rules that
// relate parts of the document to each other. Names and references (duplicates, unknown
// plans and routes) are checked on whatever parsed even when the shape fails, so one
// answer holds every error; the limit rules need well-formed limits and wait for them.

import { dedupeErrors, type DocumentError } from "./document-error";
import { documentSchema, type ConfigDocument, type PlanDoc, type RouteDoc } from "./document-schema";
import { checkLimitsOf } from "./check-document-limits";
import { checkNames } from "./check-names";
import { readDocumentRefs } from "./document-refs";
import type { InheritanceScope } from "./inheritance";
import { documentErrorMap, issuesToErrors } from "./zod-issues";

/**
 * What the document is read against when it leaves plans or routes out (a tenant-scoped
 * import): pass the current ones, else they count as none. Without the plans, a tenant
 * limit could not be told apart from an override of a plan limit.
 */
export interface ValidationContext {
  plans?: readonly PlanDoc[];
  routes?: readonly RouteDoc[];
}

export type ValidationResult =
  { ok: true; document: ConfigDocument } | { ok: false; errors: DocumentError[] };

// Natural order: "tenants[2]" before "tenants[10]", so errors read top to bottom.
function comparePaths(a: DocumentError, b: DocumentError): number {
  return a.path.localeCompare(b.path, "en", { numeric: true });
}

export function validateDocument(input: unknown, context: ValidationContext = {}): ValidationResult {
  const parsed = documentSchema.safeParse(input, { error: documentErrorMap });
  if (!parsed.success) {
    const refs = readDocumentRefs(input);
    const names = checkNames(refs, {
      plans: refs.plans ?? context.plans ?? [],
      routes: refs.routes ?? context.routes ?? [],
    });
    const errors = [...issuesToErrors(parsed.error.issues), ...names];
    return { ok: false, errors: dedupeErrors(errors).sort(comparePaths) };
  }
  const document = parsed.data;
  const scope: InheritanceScope = {
    plans: document.plans ?? context.plans ?? [],
    routes: document.routes ?? context.routes ?? [],
  };
  const errors = dedupeErrors([...checkNames(document, scope), ...checkLimitsOf(document, scope)]);
  if (errors.length > 0) return { ok: false, errors: errors.sort(comparePaths) };
  return { ok: true, document };
}
