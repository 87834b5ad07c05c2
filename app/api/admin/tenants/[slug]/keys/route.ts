// GET /api/admin/tenants/{slug}/keys: the tenant's API keys (names, prefixes, dates; never
// secrets). POST: create a key; 201 { id, name, key, prefix } with the secret shown only now.
import { parseJsonBody } from "@/lib/control/api/read-body";
import { withAdmin } from "@/lib/control/api/with-admin";
import { createApiKey, listApiKeys } from "@/lib/control/data/api-keys";
import { CreateKeyInput } from "@/lib/control/keys/key-inputs";

type Params = { slug: string };

export const GET = withAdmin<Params>(async ({ principal, params }) => {
  const keys = await listApiKeys(principal, params.slug);
  return Response.json({ keys });
});

export const POST = withAdmin<Params>(async ({ request, principal, requestId, params }) => {
  const input = await parseJsonBody(request, CreateKeyInput);
  const created = await createApiKey(principal, params.slug, input, { requestId });
  return Response.json(created, { status: 201 });
});
