// POST /api/admin/penalty/lift { tenant, limit, key?, route?, subject? }: end that limit's
// penalty block (one owner's when key or subject names it, else every owner's). Audited.
import { parseJsonBody } from "@/lib/control/api/read-body";
import { withAdmin } from "@/lib/control/api/with-admin";
import { LiftInput, liftPenalty } from "@/lib/control/counters/penalty-lift";

export const POST = withAdmin(async ({ request, principal, requestId }) => {
  const input = await parseJsonBody(request, LiftInput);
  return Response.json(await liftPenalty(principal, input, requestId));
});
