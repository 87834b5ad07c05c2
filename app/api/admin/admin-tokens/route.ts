// POST /api/admin/admin-tokens: { name, role, tenant? } -> 201 { id, token }. Without a
// tenant the token is an operator's (operators only); nobody mints a role above their own.
import { parseJsonBody } from "@/lib/control/api/read-body";
import { withAdmin } from "@/lib/control/api/with-admin";
import { CreateAdminTokenInput, createAdminToken } from "@/lib/control/data/tokens";

export const POST = withAdmin(async ({ request, principal, requestId }) => {
  const input = await parseJsonBody(request, CreateAdminTokenInput);
  const created = await createAdminToken(principal, input, requestId);
  return Response.json(created, { status: 201 });
});
