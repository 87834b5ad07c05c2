import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { ConflictError, NotFoundError } from "@/lib/control/errors/errors";
import type { ImportResult } from "@/lib/control/data/import-config";
import {
  importGlobal,
  importTenant,
  readGlobalDoc,
  readTenantDoc,
} from "@/lib/control/data/edits/document-edit";

// Route patterns: a tenant's own (editors) and global ones (operators). A route is added
// empty and gets limits in the limit editor; removing it removes its limits too.

export async function addTenantRoute(
  principal: Principal,
  slug: string,
  pattern: string,
): Promise<ImportResult> {
  const doc = await readTenantDoc(principal, slug, "editor");
  if (doc.routes.some((r) => r.pattern === pattern))
    throw new ConflictError(`The route ${pattern} already exists.`, "pattern");
  return importTenant(principal, { ...doc, routes: [...doc.routes, { pattern, limits: [] }] });
}

export async function removeTenantRoute(
  principal: Principal,
  slug: string,
  pattern: string,
): Promise<ImportResult> {
  const doc = await readTenantDoc(principal, slug, "editor");
  if (!doc.routes.some((r) => r.pattern === pattern)) throw new NotFoundError(`No route ${pattern}.`);
  return importTenant(principal, { ...doc, routes: doc.routes.filter((r) => r.pattern !== pattern) });
}

export async function addGlobalRoute(principal: Principal, pattern: string): Promise<ImportResult> {
  const { routes } = await readGlobalDoc(principal);
  if (routes.some((r) => r.pattern === pattern))
    throw new ConflictError(`The route ${pattern} already exists.`, "pattern");
  return importGlobal(principal, { routes: [...routes, { pattern, limits: [] }] });
}

export async function removeGlobalRoute(principal: Principal, pattern: string): Promise<ImportResult> {
  const { routes } = await readGlobalDoc(principal);
  if (!routes.some((r) => r.pattern === pattern)) throw new NotFoundError(`No route ${pattern}.`);
  return importGlobal(principal, { routes: routes.filter((r) => r.pattern !== pattern) });
}
