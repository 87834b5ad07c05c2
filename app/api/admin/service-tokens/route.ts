// POST /api/admin/service-tokens: { name, tenants?: [slugs] } -> 201 { id, token }, the
// token shown only now. Without tenants it may check for every tenant (operators only).
import { parseJsonBody } from "@/lib/control/api/read-body";
import { withAdmin } from "@/lib/control/api/with-admin";
import { CreateServiceTokenInput, createServiceToken } from "@/lib/control/data/tokens";

export const POST = withAdmin(async ({ request, principal, requestId }) => {
  const input = await parseJsonBody(request, CreateServiceTokenInput);
  const created = await createServiceToken(principal, input, { requestId });
  return Response.json(created, { status: 201 });
});
