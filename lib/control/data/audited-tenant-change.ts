import "server-only";
import type { Principal, Role } from "@/lib/shared/principal";
import { writeAudit, type AuditInput } from "@/lib/control/data/audit";
import { db } from "@/lib/control/data/db";
import { tenantFor, type TenantRef } from "@/lib/control/data/tenant-access";

// A change made outside PostgreSQL (Redis counters) but audited in it: the transaction holds
// the tenant check and the audit entry, and its commit waits on the caller's work, so work
// that throws leaves no audit entry behind.

export interface AuditedTenantChange {
  tenant: TenantRef;
  /** writes the audit entry in the open transaction, attributed to the principal */
  audit(entry: Omit<AuditInput, "tenantId">): Promise<void>;
}

export function auditedTenantChange<T>(
  principal: Principal,
  slug: string,
  needed: Role,
  requestId: string | null,
  work: (change: AuditedTenantChange) => Promise<T>,
  timeoutMs: number,
): Promise<T> {
  return db().$transaction(
    async (tx) => {
      const tenant = await tenantFor(tx, principal, slug, needed);
      return work({
        tenant,
        audit: (entry) =>
          writeAudit(tx, { principal, requestId, configVersion: null }, { ...entry, tenantId: tenant.id }),
      });
    },
    { timeout: timeoutMs },
  );
}
