// GET /api/admin/simulate?tenant=&key=&route=&subject=&cost=: every limit such a check would
// meet, where its values come from, its live counter, and the verdict of a dryRun check.
import { parseQuery } from "@/lib/control/api/read-body";
import { withAdmin } from "@/lib/control/api/with-admin";
import { SimulateQuery, simulateCheck } from "@/lib/control/data/simulate-check";

export const GET = withAdmin(async ({ request, principal }) => {
  const query = parseQuery(request, SimulateQuery);
  return Response.json(await simulateCheck(principal, query));
});
