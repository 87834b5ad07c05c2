import "server-only";
import { isOperator, type Principal } from "@/lib/auth/principal";
import { db } from "@/lib/data/db";
import {
  locateErrors,
  parseDocumentText,
  validateDocument,
  type ConfigDocument,
  type DocumentError,
} from "@/lib/config/document";
import { canonicalPlan, canonicalRoute, canonicalTenant } from "@/lib/data/canonical";
import { ValidationFailed } from "@/lib/data/errors";
import { importConfig, type ConfigChangeItem } from "@/lib/data/import-config";
import { assertMayImport } from "@/lib/data/import-access";
import { readDocument } from "@/lib/data/read-document";
import { toYaml } from "@/lib/data/queries/config-yaml";

// YAML import from the dashboard: a preview (importConfig's dry run: every error with its
// path, or the list of changes, plus the before/after text of exactly the parts the
// document touches) and then the real import, which re-validates everything.

export type ImportPreview =
  | { ok: false; errors: DocumentError[] }
  | { ok: true; changes: ConfigChangeItem[]; before: string; after: string };

function parse(text: string): unknown {
  const parsed = parseDocumentText(text, "yaml");
  if (!parsed.ok) throw new ValidationFailed(locateErrors(text, parsed.errors));
  return parsed.input;
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
    const input = parse(text);
    const { changes } = await importConfig(principal, input, { dryRun: true });
    const current = await db().$transaction((tx) => readDocument(tx));
    const valid = validateDocument(input, { plans: current.plans, routes: current.routes });
    if (!valid.ok) return { ok: false, errors: locateErrors(text, valid.errors) };
    // A member's preview must not show other tenants: its document can hold only its own.
    const scoped = isOperator(principal) ? current : { tenants: current.tenants };
    const { before, after } = touched(scoped, valid.document);
    return { ok: true, changes, before: toYaml(before), after: toYaml(after) };
  } catch (error) {
    if (error instanceof ValidationFailed) return { ok: false, errors: locateErrors(text, error.errors) };
    throw error;
  }
}

export async function applyImport(
  principal: Principal,
  text: string,
): Promise<{ configVersion: number | null; changes: ConfigChangeItem[] }> {
  assertMayImport(principal);
  try {
    return await importConfig(principal, parse(text));
  } catch (error) {
    if (error instanceof ValidationFailed) throw new ValidationFailed(locateErrors(text, error.errors));
    throw error;
  }
}
