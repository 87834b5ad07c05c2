// POST /api/admin/reset { tenant, limit, key?, route?, subject? }: clear that limit's
// counters (one owner's when key or subject names it, else every owner's). Audited.
import { parseJsonBody } from "@/lib/control/api/read-body";
import { withAdmin } from "@/lib/control/api/with-admin";
import { ResetInput, resetCounter } from "@/lib/control/data/counter-reset";

export const POST = withAdmin(async ({ request, principal, requestId }) => {
  const input = await parseJsonBody(request, ResetInput);
  return Response.json(await resetCounter(principal, input, requestId));
});
