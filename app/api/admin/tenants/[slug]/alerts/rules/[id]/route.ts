// DELETE /api/admin/tenants/{slug}/alerts/rules/{id}: disable the rule (editors and above);
// a firing alert of it is resolved at the next evaluation. Idempotent.
import { withAdmin } from "@/lib/control/api/with-admin";
import { disableAlertRule } from "@/lib/control/data/alerts/rules";

type Params = { slug: string; id: string };

export const DELETE = withAdmin<Params>(async ({ principal, requestId, params }) => {
  await disableAlertRule(principal, params.slug, params.id, requestId);
  return Response.json({ id: params.id, disabled: true });
});
