// GET /api/admin/overrides?tenant=&state=: temporary overrides in force and waiting (one
// tenant's, or every tenant's for operators). POST: create one (audited, a config change).
import { parseJsonBody, parseQuery } from "@/lib/control/api/read-body";
import { withAdmin } from "@/lib/control/api/with-admin";
import { OverrideInput, OverrideListQuery } from "@/lib/control/overrides/override-input";
import { listOverrides } from "@/lib/control/data/override-list";
import { createOverride } from "@/lib/control/data/overrides";

export const GET = withAdmin(async ({ request, principal }) => {
  const query = parseQuery(request, OverrideListQuery);
  return Response.json(await listOverrides(principal, query));
});

export const POST = withAdmin(async ({ request, principal, requestId }) => {
  const input = await parseJsonBody(request, OverrideInput);
  return Response.json(await createOverride(principal, input, requestId), { status: 201 });
});
