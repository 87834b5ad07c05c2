// GET /api/admin/audit?tenant=&limit=&before=: the audit log, newest first. `limit` is the
// page size (1..500, default 50), not a rate limit; `before` is the previous page's
// `nextBefore`. Tenant-scoped callers see only their tenants' entries.
import { parseQuery } from "@/lib/control/api/read-body";
import { withAdmin } from "@/lib/control/api/with-admin";
import { AuditQuery, listAudit } from "@/lib/control/data/audit-log";

export const GET = withAdmin(async ({ request, principal }) => {
  const query = parseQuery(request, AuditQuery);
  return Response.json(await listAudit(principal, query));
});
