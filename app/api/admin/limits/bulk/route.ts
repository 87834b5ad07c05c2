// POST /api/admin/limits/bulk: { limit, tenants: [slug...] } or { limit, tenant, keys:
// [name...] } adds the limit to (or replaces the one of its name on) every target in one
// change: 200 { configVersion, created, updated, unchanged }; 422 with every error.
import { BULK_BODY_LIMIT, parseJsonBody } from "@/lib/control/api/read-body";
import { withAdmin } from "@/lib/control/api/with-admin";
import { applyLimit } from "@/lib/control/data/bulk/apply-limit";
import { BulkLimitInput } from "@/lib/control/bulk/bulk-inputs";
import { assertMayImport } from "@/lib/control/config/import/import-access";

export const POST = withAdmin(async ({ request, principal, requestId }) => {
  assertMayImport(principal); // before the body is read or parsed
  const input = await parseJsonBody(request, BulkLimitInput, BULK_BODY_LIMIT);
  return Response.json(await applyLimit(principal, input, requestId));
});
