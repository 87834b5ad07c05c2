// GET /api/admin/tenants/{slug}/alerts/endpoints: the tenant's webhook endpoints (no
// secrets). POST: create one (admins); 201 with its signing secret, shown only now.
import { parseJsonBody } from "@/lib/control/api/read-body";
import { withAdmin } from "@/lib/control/api/with-admin";
import { createAlertEndpoint, listAlertEndpoints } from "@/lib/control/data/alerts/endpoints";
import { CreateEndpointInput } from "@/lib/control/alerts/input/inputs";

type Params = { slug: string };

export const GET = withAdmin<Params>(async ({ principal, params }) => {
  return Response.json({ endpoints: await listAlertEndpoints(principal, params.slug) });
});

export const POST = withAdmin<Params>(async ({ request, principal, requestId, params }) => {
  const input = await parseJsonBody(request, CreateEndpointInput);
  const created = await createAlertEndpoint(principal, params.slug, input, requestId);
  return Response.json(created, { status: 201 });
});
