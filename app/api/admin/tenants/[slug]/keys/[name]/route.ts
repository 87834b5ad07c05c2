// DELETE /api/admin/tenants/{slug}/keys/{name}: revoke the key (checks with it then answer
// revoked_key). Revoking an already revoked key is a no-op that answers the same.
import { withAdmin } from "@/lib/control/api/with-admin";
import { revokeApiKey } from "@/lib/control/data/api-keys";

type Params = { slug: string; name: string };

export const DELETE = withAdmin<Params>(async ({ principal, requestId, params }) => {
  await revokeApiKey(principal, params.slug, params.name, requestId);
  return Response.json({ name: params.name, revoked: true });
});
