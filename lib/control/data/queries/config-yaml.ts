import "server-only";
import { stringify } from "yaml";
import { isOperator, type Principal } from "@/lib/shared/principal";
import { db } from "@/lib/control/data/db";
import type { ConfigDocument } from "@/lib/control/config/document";
import { readDocument } from "@/lib/control/data/read-document";
import { tenantFor } from "@/lib/control/data/tenant-access";
import { ForbiddenError } from "@/lib/control/errors/errors";

// Export for the dashboard: the whole document for operators; for a member, only its one
// tenant (plans and global routes are not a tenant's to export or import).

export async function exportDocument(
  principal: Principal,
  tenantSlug: string | null,
): Promise<ConfigDocument> {
  return db().$transaction(async (tx) => {
    if (tenantSlug) {
      const tenant = await tenantFor(tx, principal, tenantSlug, "viewer");
      const doc = await readDocument(tx, [tenant.id]);
      return { tenants: doc.tenants ?? [] };
    }
    if (!isOperator(principal))
      throw new ForbiddenError("Only operators can export the whole configuration.");
    return readDocument(tx);
  });
}

export function toYaml(document: unknown): string {
  return stringify(document, { lineWidth: 0 });
}
