// GET /api/admin/check-health?minutes=: the check endpoint's health per minute, summed over
// the fronts (operators only; docs/api.md).
import { parseQuery } from "@/lib/control/api/read-body";
import { withAdmin } from "@/lib/control/api/with-admin";
import { CheckHealthQuery, readCheckHealth } from "@/lib/control/ops/check-health";

export const GET = withAdmin(async ({ request, principal }) => {
  const query = parseQuery(request, CheckHealthQuery);
  return Response.json(await readCheckHealth(principal, query));
});
