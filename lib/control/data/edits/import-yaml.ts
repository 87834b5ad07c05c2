import "server-only";
import { isOperator, type Principal } from "@/lib/shared/principal";
import { db } from "@/lib/control/data/db";
import {
  locateErrors,
  validateDocument,
  type ConfigDocument,
  type DocumentError,
  type SourcePositions,
} from "@/lib/control/config/document";
import { DocumentRefused } from "@/lib/control/config/document/worker/check-document";
import { ImportInProgress, oneAtATime } from "@/lib/control/config/document/worker/one-at-a-time";
import { canonicalPlan, canonicalRoute, canonicalTenant } from "@/lib/control/config/import/canonical";
import { checkedText } from "@/lib/control/data/document-text";
import { ConflictError, ValidationFailed } from "@/lib/control/errors/errors";
import { importConfig, type ConfigChangeItem, type ImportResult } from "@/lib/control/data/import-config";
import { assertMayImport } from "@/lib/control/config/import/import-access";
import { readDocument } from "@/lib/control/data/read-document";
import { toYaml } from "@/lib/control/data/queries/config-yaml";

// YAML import from the dashboard: a preview (importConfig's dry run: every error with its
// path, or the list of changes, plus the before/after text of exactly the parts the
// document touches) and then the real import, which re-validates everything.

export type ImportPreview =
  | { ok: false; errors: DocumentError[] }
  | { ok: true; changes: ConfigChangeItem[]; before: string; after: string };

// The document's text is checked once, in the document worker when it is large; a text
// over the worker's budget is a document error, and a second import or preview while the
// user's first runs is a conflict (the dashboard shows both as such).
async function checked<T>(
  principal: Principal,
  text: string,
  work: (input: unknown, positions: SourcePositions) => Promise<T>,
): Promise<T> {
  try {
    return await oneAtATime(principal, async () => {
      const { input, positions } = await checkedText(text, "yaml");
      return work(input, positions);
    });
  } catch (error) {
    if (error instanceof DocumentRefused) throw new ValidationFailed([{ path: "", message: error.message }]);
    if (error instanceof ImportInProgress) throw new ConflictError(error.message);
    throw error;
  }
}

/** The current state of what `next` names, in the same canonical spelling. */
function touched(
  current: ConfigDocument,
  next: ConfigDocument,
): { before: ConfigDocument; after: ConfigDocument } {
  const before: ConfigDocument = {};
  const after: ConfigDocument = {};
  if (next.plans) {
    before.plans = (current.plans ?? []).map(canonicalPlan);
    after.plans = next.plans.map(canonicalPlan);
  }
  if (next.routes) {
    before.routes = (current.routes ?? []).map(canonicalRoute);
    after.routes = next.routes.map(canonicalRoute);
  }
  if (next.tenants) {
    const bySlug = new Map((current.tenants ?? []).map((t) => [t.slug, t]));
    before.tenants = next.tenants.flatMap((t) => {
      const found = bySlug.get(t.slug);
      return found ? [canonicalTenant(found)] : [];
    });
    after.tenants = next.tenants.map(canonicalTenant);
  }
  return { before, after };
}

export async function previewImport(principal: Principal, text: string): Promise<ImportPreview> {
  assertMayImport(principal); // before parsing (import-access.ts)
  try {
    return await checked(principal, text, async (input, positions): Promise<ImportPreview> => {
      try {
        const { changes } = await importConfig(principal, input, { dryRun: true });
        const current = await db().$transaction((tx) => readDocument(tx));
        const valid = validateDocument(input, { plans: current.plans, routes: current.routes });
        if (!valid.ok) return { ok: false, errors: locateErrors(valid.errors, positions) };
        // A member's preview must not show other tenants: its document can hold only its own.
        const scoped = isOperator(principal) ? current : { tenants: current.tenants };
        const { before, after } = touched(scoped, valid.document);
        return { ok: true, changes, before: toYaml(before), after: toYaml(after) };
      } catch (error) {
        if (error instanceof ValidationFailed)
          return { ok: false, errors: locateErrors(error.errors, positions) };
        throw error;
      }
    });
  } catch (error) {
    // the check's own errors are already located
    if (error instanceof ValidationFailed) return { ok: false, errors: error.errors };
    throw error;
  }
}

export async function applyImport(principal: Principal, text: string): Promise<ImportResult> {
  assertMayImport(principal);
  return checked(principal, text, async (input, positions) => {
    try {
      return await importConfig(principal, input);
    } catch (error) {
      if (error instanceof ValidationFailed)
        throw new ValidationFailed(locateErrors(error.errors, positions));
      throw error;
    }
  });
}
