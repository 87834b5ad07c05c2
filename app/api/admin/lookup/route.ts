// GET /api/admin/lookup?tenant=&key=&route=&subject=: the live counters of every limit the
// identifier meets, plus its recent decisions and denials (a bounded per-tenant sample).
import { parseQuery } from "@/lib/control/api/read-body";
import { withAdmin } from "@/lib/control/api/with-admin";
import { LookupQuery, lookupIdentifier } from "@/lib/control/ops/identifier-lookup";

export const GET = withAdmin(async ({ request, principal }) => {
  const query = parseQuery(request, LookupQuery);
  return Response.json(await lookupIdentifier(principal, query));
});
