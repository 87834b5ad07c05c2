// GET /api/admin/tenants/{slug}/alerts/deliveries?limit=50: the delivery log, newest first
// (event, rule, endpoint, status, attempts, last response code and error).
import { parseQuery } from "@/lib/control/api/read-body";
import { withAdmin } from "@/lib/control/api/with-admin";
import { listAlertDeliveries } from "@/lib/control/data/alerts/deliveries";
import { DeliveryQuery } from "@/lib/control/alerts/input/inputs";

type Params = { slug: string };

export const GET = withAdmin<Params>(async ({ request, principal, params }) => {
  const { limit } = parseQuery(request, DeliveryQuery);
  return Response.json({ deliveries: await listAlertDeliveries(principal, params.slug, limit) });
});
