// POST /api/admin/tenants/{slug}/keys/{name}/rotate { graceSeconds }: a new secret for the key,
// shown only now; the old one keeps working until the grace period ends (docs/api.md#key-rotation).
import { parseJsonBody } from "@/lib/control/api/read-body";
import { withAdmin } from "@/lib/control/api/with-admin";
import { rotateApiKey } from "@/lib/control/data/key-rotation";
import { RotateKeyInput } from "@/lib/control/keys/key-inputs";

type Params = { slug: string; name: string };

export const POST = withAdmin<Params>(async ({ request, principal, requestId, params }) => {
  const input = await parseJsonBody(request, RotateKeyInput);
  const rotated = await rotateApiKey(principal, params.slug, params.name, input, requestId);
  return Response.json(rotated);
});
