// GET /api/admin/decisions?tenant=&key=&route=&subject=&outcome=&reason=&deniedBy=&minutes=&limit=&format=:
// the tenant's decision log, newest first, from the per-tenant sample (docs/api.md).
// `format=csv` streams it as a CSV file (at most LOG_MAX_ROWS rows, which is the default there).
import { parseQuery } from "@/lib/control/api/read-body";
import { withAdmin } from "@/lib/control/api/with-admin";
import { DecisionLogQuery, LOG_MAX_ROWS } from "@/lib/control/ops/decision-log-query";
import { readDecisionLog } from "@/lib/control/ops/decision-log";
import { csvFileName, decisionLogCsv } from "@/lib/control/ops/decision-log-csv";

export const GET = withAdmin(async ({ request, principal }) => {
  const query = parseQuery(request, DecisionLogQuery);
  if (query.format !== "csv") return Response.json(await readDecisionLog(principal, query));
  const log = await readDecisionLog(principal, { ...query, limit: query.limit ?? LOG_MAX_ROWS });
  return new Response(decisionLogCsv(log), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${csvFileName(log.tenant, new Date())}"`,
    },
  });
});
