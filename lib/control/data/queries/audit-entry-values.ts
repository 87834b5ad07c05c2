import "server-only";
import { hasRole, isOperator, type Principal } from "@/lib/shared/principal";
import { db } from "@/lib/control/data/db";
import { NotFoundError } from "@/lib/control/errors/errors";

// One audit entry's before and after, read when the log's reader unfolds its changes: the
// page itself sends each entry's count of changed fields only (an import's entry holds a
// whole tenant, and 50 of them made the page megabytes). Readable by whoever may read the
// entry on a log page: operators, and members of the entry's tenant (viewer and up).

export interface AuditEntryValues {
  before: unknown;
  after: unknown;
}

/** NotFoundError for an entry that does not exist or that the principal may not read. */
export async function auditEntryValues(principal: Principal, id: string): Promise<AuditEntryValues> {
  const entry = await db().auditEntry.findUnique({
    where: { id: BigInt(id) },
    select: { tenantId: true, before: true, after: true },
  });
  const readable =
    entry !== null &&
    (isOperator(principal) || (entry.tenantId !== null && hasRole(principal, entry.tenantId, "viewer")));
  if (!entry || !readable) throw new NotFoundError(`No audit entry ${id}.`);
  return { before: entry.before, after: entry.after };
}
