// POST /api/admin/tenants/{slug}/keys/bulk: create up to 1,000 keys in one change (one
// config version, all or none); 201 { keys: [{ id, name, key, prefix }], configVersion }
// with every secret shown only now. DELETE: revokes the key named "bulk", which this
// static segment would otherwise hide from keys/{name}.
import { BULK_BODY_LIMIT, parseJsonBody } from "@/lib/control/api/read-body";
import { withAdmin } from "@/lib/control/api/with-admin";
import { createApiKeys, revokeApiKey } from "@/lib/control/data/api-keys";
import { BulkKeysInput } from "@/lib/control/bulk/bulk-inputs";

type Params = { slug: string };

export const POST = withAdmin<Params>(async ({ request, principal, requestId, params }) => {
  const input = await parseJsonBody(request, BulkKeysInput, BULK_BODY_LIMIT);
  const keys = await createApiKeys(principal, params.slug, input.keys, requestId);
  return Response.json({ keys }, { status: 201 });
});

export const DELETE = withAdmin<Params>(async ({ principal, requestId, params }) => {
  await revokeApiKey(principal, params.slug, "bulk", requestId);
  return Response.json({ name: "bulk", revoked: true });
});
