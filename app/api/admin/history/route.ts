// GET /api/admin/history?tenant=&limit=&before=: config versions newest first, each with who,
// when and what changed (before and after per object); a tenant's member sees its versions only.
import { parseQuery } from "@/lib/control/api/read-body";
import { withAdmin } from "@/lib/control/api/with-admin";
import { HistoryQuery, listHistory } from "@/lib/control/data/config-history";

export const GET = withAdmin(async ({ request, principal }) => {
  const query = parseQuery(request, HistoryQuery);
  return Response.json(await listHistory(principal, query));
});
