import "server-only";
import { isOperator, type Principal, type Role } from "@/lib/shared/principal";
import { db } from "@/lib/control/data/db";
import type { ConfigDocument, TenantDoc } from "@/lib/control/config/document";
import { ForbiddenError, NotFoundError } from "@/lib/control/errors/errors";
import { importConfig, type ImportResult } from "@/lib/control/data/import-config";
import { readDocument } from "@/lib/control/data/read-document";
import { tenantFor } from "@/lib/control/data/tenant-access";

// Dashboard edits of the configuration are small imports: read the current part, change
// one thing, and hand that part to importConfig, which validates everything (with paths),
// enforces who may change what, audits, versions and publishes, all or nothing. The
// tenant and role are checked here first so another tenant's slug answers "not found"
// before anything is read.

/** The tenant's current document, after checking the principal holds `role` in it. */
export async function readTenantDoc(principal: Principal, slug: string, role: Role): Promise<TenantDoc> {
  return db().$transaction(async (tx) => {
    const ref = await tenantFor(tx, principal, slug, role);
    const doc = (await readDocument(tx, [ref.id])).tenants?.[0];
    if (!doc) throw new NotFoundError(`No tenant named ${slug}.`);
    return doc;
  });
}

/** Plans and global routes are the operators' alone. */
export async function readGlobalDoc(
  principal: Principal,
): Promise<Required<Pick<ConfigDocument, "plans" | "routes">>> {
  if (!isOperator(principal))
    throw new ForbiddenError("Only an operator can change plans and global routes.");
  const doc = await db().$transaction((tx) => readDocument(tx, []));
  return { plans: doc.plans ?? [], routes: doc.routes ?? [] };
}

export function importTenant(principal: Principal, doc: TenantDoc, dryRun = false): Promise<ImportResult> {
  return importConfig(principal, { tenants: [doc] }, { dryRun });
}

export function importGlobal(
  principal: Principal,
  part: Pick<ConfigDocument, "plans" | "routes">,
): Promise<ImportResult> {
  if (!isOperator(principal))
    throw new ForbiddenError("Only an operator can change plans and global routes.");
  return importConfig(principal, part);
}
