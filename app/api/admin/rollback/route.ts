// POST /api/admin/rollback { version, tenant?, dryRun? }: restore an earlier version's
// configuration (one tenant's part, or the whole for operators) as a new, audited version,
// validated like any import.
import { parseJsonBody } from "@/lib/control/api/read-body";
import { withAdmin } from "@/lib/control/api/with-admin";
import { RollbackInput, rollbackConfig } from "@/lib/control/data/config-rollback";

export const POST = withAdmin(async ({ request, principal, requestId }) => {
  const input = await parseJsonBody(request, RollbackInput);
  return Response.json(await rollbackConfig(principal, input, requestId));
});
