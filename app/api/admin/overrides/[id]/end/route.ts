// POST /api/admin/overrides/{id}/end: end an override now (one not yet started is
// cancelled). Audited, a config change; servers drop it on the new version.
import { withAdmin } from "@/lib/control/api/with-admin";
import { OverrideId } from "@/lib/control/overrides/override-input";
import { endOverride } from "@/lib/control/data/overrides";

export const POST = withAdmin<{ id: string }>(async ({ principal, requestId, params }) => {
  const id = OverrideId.parse(params.id);
  return Response.json(await endOverride(principal, id, requestId));
});
