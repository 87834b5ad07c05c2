// GET /api/admin/tenants/{slug}/alerts/rules: the tenant's alert rules and which are firing.
// POST: create one (editors and above); 201 with the rule.
import { parseJsonBody } from "@/lib/control/api/read-body";
import { withAdmin } from "@/lib/control/api/with-admin";
import { CreateRuleInput } from "@/lib/control/alerts/input/inputs";
import { createAlertRule, listAlertRules } from "@/lib/control/data/alerts/rules";

type Params = { slug: string };

export const GET = withAdmin<Params>(async ({ principal, params }) => {
  return Response.json({ rules: await listAlertRules(principal, params.slug) });
});

export const POST = withAdmin<Params>(async ({ request, principal, requestId, params }) => {
  const input = await parseJsonBody(request, CreateRuleInput);
  const rule = await createAlertRule(principal, params.slug, input, requestId);
  return Response.json(rule, { status: 201 });
});
