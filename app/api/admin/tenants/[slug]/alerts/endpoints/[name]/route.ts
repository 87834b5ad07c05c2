// DELETE /api/admin/tenants/{slug}/alerts/endpoints/{name}: disable the endpoint (admins);
// its rules stop firing and nothing more is sent to it. Idempotent.
import { withAdmin } from "@/lib/control/api/with-admin";
import { disableAlertEndpoint } from "@/lib/control/data/alerts/endpoints";

type Params = { slug: string; name: string };

export const DELETE = withAdmin<Params>(async ({ principal, requestId, params }) => {
  await disableAlertEndpoint(principal, params.slug, params.name, requestId);
  return Response.json({ name: params.name, disabled: true });
});
