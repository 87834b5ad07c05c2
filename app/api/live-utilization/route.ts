// GET /api/live-utilization?tenant=: the live counters beside each limit on the tenant's
// Limits tab, polled every 5 s while the tab is open. Session-authenticated (viewer and up);
// a tenant the user may not see answers 404 like one that does not exist. The read is
// bounded (lib/data/live-utilization.ts) and a dry run: it consumes nothing.
import { z } from "zod";
import { currentUser } from "@/lib/control/auth/session";
import { NotFoundError } from "@/lib/control/errors/errors";
import { liveUtilization } from "@/lib/control/counters/live-utilization";

export const dynamic = "force-dynamic";

const NO_STORE = { "cache-control": "no-store" };

const Query = z.object({
  tenant: z
    .string({ error: "tenant is required" })
    .min(1, "tenant is required")
    .max(100, "tenant is at most 100 characters"),
});

function answer(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status, headers: NO_STORE });
}

export async function GET(request: Request): Promise<Response> {
  const user = await currentUser();
  if (!user) return answer(401, "unauthorized", "Sign in to see live counters.");
  const query = Query.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) {
    const message = query.error.issues.map((i) => `${i.path.join(".") || "query"}: ${i.message}`).join("; ");
    return answer(400, "invalid_request", message);
  }
  try {
    const live = await liveUtilization(user, query.data.tenant);
    if (live === null)
      return answer(503, "unavailable", "Redis did not answer; the counters cannot be read now.");
    return Response.json(live, { headers: NO_STORE });
  } catch (error) {
    if (error instanceof NotFoundError) return answer(404, "not_found", error.message);
    throw error;
  }
}
