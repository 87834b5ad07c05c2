// GET /api/admin/history?tenant=&limit=&before=: config versions newest first, each with who,
// when and what changed (before and after per object); a tenant's member sees its versions only.
import { parseQuery } from "@/lib/api/read-body";
import { withAdmin } from "@/lib/api/with-admin";
import { HistoryQuery, listHistory } from "@/lib/data/config-history";

export const GET = withAdmin(async ({ request, principal }) => {
  const query = parseQuery(request, HistoryQuery);
  return Response.json(await listHistory(principal, query));
});
