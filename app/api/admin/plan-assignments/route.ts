// POST /api/admin/plan-assignments: { plan, tenants: [slug...] } moves every listed tenant
// to the plan in one change (operators only): 200 { configVersion, moved, unchanged }
// (configVersion null when all were already on it); 422 naming unknown slugs or the plan.
import { BULK_BODY_LIMIT, parseJsonBody } from "@/lib/control/api/read-body";
import { withAdmin } from "@/lib/control/api/with-admin";
import { isOperator } from "@/lib/shared/principal";
import { assignPlan } from "@/lib/control/data/bulk/assign-plan";
import { PlanAssignmentInput } from "@/lib/control/bulk/bulk-inputs";
import { ForbiddenError } from "@/lib/control/errors/errors";

export const POST = withAdmin(async ({ request, principal, requestId }) => {
  // before the body is read: a member's token cannot make the server parse 256 KiB
  if (!isOperator(principal)) throw new ForbiddenError("Only an operator can change a tenant's plan.");
  const input = await parseJsonBody(request, PlanAssignmentInput, BULK_BODY_LIMIT);
  return Response.json(await assignPlan(principal, input, requestId));
});
