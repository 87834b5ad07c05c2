// GET /api/admin/usage?tenant=&key=&route=&from=&to=&step=: allowed / rejected /
// shadow-rejected / degraded counts per step (from, to: ISO 8601 or epoch ms, default the
// last hour; step 1s..1d, default chosen to give at most 1000 points).
import { parseQuery } from "@/lib/control/api/read-body";
import { UsageParams } from "@/lib/control/api/usage-params";
import { withAdmin } from "@/lib/control/api/with-admin";
// The query reads live seconds from Redis and rollups from PostgreSQL (lib/usage).
import { queryUsage } from "@/lib/usage/read/api-series";

export const GET = withAdmin(async ({ request, principal }) => {
  const params = parseQuery(request, UsageParams);
  return Response.json(await queryUsage(principal, params));
});
