// GET /api/limit-tree?tenant=&key=&route=&range=: the limit tree chart's data, polled every
// 2 s beside the usage charts. Session-authenticated (viewer and up); tenants, keys and
// routes the user may not see answer 404 like ones that do not exist.
import { currentUser } from "@/lib/control/auth/session";
import { NotFoundError } from "@/lib/control/errors/errors";
import { StoreUnavailableError } from "@/lib/control/data/counters-store";
import { limitTree, LimitTreeQuery } from "@/lib/control/limit-tree/limit-tree";

export const dynamic = "force-dynamic";

const NO_STORE = { "cache-control": "no-store" };

function answer(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status, headers: NO_STORE });
}

export async function GET(request: Request): Promise<Response> {
  const user = await currentUser();
  if (!user) return answer(401, "unauthorized", "Sign in to see the limit tree.");
  const query = LimitTreeQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) {
    const message = query.error.issues.map((i) => `${i.path.join(".") || "query"}: ${i.message}`).join("; ");
    return answer(400, "invalid_request", message);
  }
  try {
    return Response.json(await limitTree(user, query.data), { headers: NO_STORE });
  } catch (error) {
    if (error instanceof NotFoundError) return answer(404, "not_found", error.message);
    if (!(error instanceof StoreUnavailableError)) console.error("[sluice] limit-tree:", error);
    return answer(503, "unavailable", "The limit tree could not be read right now; retrying.");
  }
}
