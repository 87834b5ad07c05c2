// POST /api/admin/replay { tenant, key?, route?, by, proposed, current, minutes? }: the what-if
// replay of a limit over the tenant's recorded traffic (docs/replay.md). Reads only; a reader
// of the tenant's usage (viewer and up) may ask.
import { parseJsonBody } from "@/lib/control/api/read-body";
import { withAdmin } from "@/lib/control/api/with-admin";
import { runReplay } from "@/lib/control/replay/run-replay";
import { replayRequestSchema } from "@/lib/control/replay/types";

export const POST = withAdmin(async ({ request, principal }) => {
  const query = await parseJsonBody(request, replayRequestSchema);
  return Response.json(await runReplay(principal, query));
});
