import "server-only";
import { isOperator, hasRole, type Principal } from "@/lib/shared/principal";
import {
  readDocumentRefs,
  validateDocument,
  type ConfigDocument,
  type DocumentError,
} from "@/lib/control/config/document";
import { sameJson } from "@/lib/control/config/import/canonical";
import { documentCapErrors } from "@/lib/control/config/import/count-caps";
import type { CheckedDocument } from "@/lib/control/data/document-text";
import { ForbiddenError, NotFoundError, ValidationFailed } from "@/lib/control/errors/errors";
import { checkAgainstDatabase } from "@/lib/control/data/import-checks";
import { checkImposedOverrides } from "@/lib/control/config/import/imposed-overrides";
import { assertMayCreateKeys, keyCapErrors, planKeys, type KeyPlan } from "@/lib/control/data/import-keys";
import { readImportState, type ImportState } from "@/lib/control/data/import-state";
import { tenantFieldErrors } from "@/lib/control/config/import/tenant-field-rights";
import type { Tx } from "@/lib/control/data/tx";

// Everything an import checks before its first write; any error throws ValidationFailed
// (422, every error at once), ForbiddenError or NotFoundError, and nothing is written.

export interface ValidImport {
  document: ConfigDocument;
  state: ImportState;
  keys: KeyPlan;
}

const byPath = (a: DocumentError, b: DocumentError): number =>
  a.path.localeCompare(b.path, "en", { numeric: true });

export async function validateImport(
  tx: Tx,
  principal: Principal,
  input: unknown,
  base: ConfigDocument,
  prune: boolean,
  checked?: CheckedDocument,
): Promise<ValidImport> {
  const result = stillValid(checked, base)
    ? { ok: true as const, document: checked.document }
    : validateDocument(input, { plans: base.plans, routes: base.routes });
  if (!result.ok) {
    // Every error in one answer: key caps are read from the document's names even on a bad shape.
    const refs = readDocumentRefs(input);
    const keys = keyCapErrors(principal, refs, await planKeys(tx, refs));
    throw new ValidationFailed([...result.errors, ...keys].sort(byPath));
  }
  const document = result.document;
  // pruning deletes every unlisted tenant, and overrides compile against all of them
  const whole = prune || (document.overrides ?? []).length > 0;
  const state = await readImportState(tx, document, whole);
  const keys = await planKeys(tx, document);
  const errors: DocumentError[] = [];
  if (!isOperator(principal))
    errors.push(...(await tenantScopeErrors(tx, principal, document, state.current, prune)));
  assertMayCreateKeys(principal, keys);
  errors.push(...keyCapErrors(principal, document, keys));
  const unlisted = state.whole ? undefined : state.unlistedLimits;
  errors.push(...documentCapErrors(document, state.current, prune, undefined, unlisted));
  errors.push(...(await checkAgainstDatabase(tx, document, state.current, prune)));
  if (errors.length > 0) throw new ValidationFailed(errors);
  return { document, state, keys };
}

/** The document was validated against the plans and global routes the import writes over. */
function stillValid(
  checked: CheckedDocument | undefined,
  current: ConfigDocument,
): checked is CheckedDocument {
  if (!checked) return false;
  const { plans, routes } = checked.against;
  return sameJson(plans ?? [], current.plans ?? []) && sameJson(routes ?? [], current.routes ?? []);
}

async function tenantScopeErrors(
  tx: Tx,
  principal: Principal,
  document: ConfigDocument,
  current: ConfigDocument,
  prune: boolean,
): Promise<DocumentError[]> {
  const only = document.tenants?.length === 1 ? document.tenants[0] : undefined;
  // the global lists are an operator's: every tenant's checks meet them
  if (!only || document.plans || document.routes || document.lists || prune) {
    throw new ForbiddenError(
      "A tenant-scoped credential may import only a document holding just its own tenant.",
    );
  }
  const row = await tx.tenant.findUnique({ where: { slug: only.slug }, select: { id: true } });
  if (!row || !hasRole(principal, row.id, "viewer")) throw new NotFoundError(`No tenant named ${only.slug}.`);
  if (!hasRole(principal, row.id, "editor"))
    throw new ForbiddenError("Your role in this tenant cannot change its configuration.");
  const before = current.tenants?.find((t) => t.slug === only.slug);
  if (!before) throw new NotFoundError(`No tenant named ${only.slug}.`);
  return [
    ...tenantFieldErrors(principal, row.id, only, before),
    ...checkImposedOverrides(only, before, current),
  ];
}
