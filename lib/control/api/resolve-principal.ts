import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { bearerToken, resolveBearer } from "@/lib/control/data/auth/api-tokens";
import { currentUser } from "@/lib/control/auth/session";
import { ApiError } from "@/lib/control/api/api-error";
import { sameOrigin } from "@/lib/shared/http/same-origin";
import { trustedProxies } from "@/lib/shared/http/client-address";

// Who calls: a bearer token (automation), else the dashboard's signed-in session so the
// browser can use the same routes; a session may change things only from our own origin
// (lib/http/same-origin.ts).

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export async function resolvePrincipal(request: Request): Promise<Principal> {
  const header = request.headers.get("authorization");
  if (header !== null) {
    const token = bearerToken(header);
    if (token === null) {
      throw new ApiError("unauthorized", 'Send the token as "Authorization: Bearer <token>".');
    }
    const outcome = await resolveBearer(token);
    if (!outcome.ok)
      throw new ApiError(outcome.status === 401 ? "unauthorized" : "forbidden", outcome.message);
    return outcome.principal;
  }
  const user = await currentUser().catch(() => null);
  if (!user) {
    throw new ApiError(
      "unauthorized",
      'This needs an admin API token ("Authorization: Bearer <token>") or a signed-in session.',
    );
  }
  if (!SAFE_METHODS.has(request.method) && !sameOrigin(request, trustedProxies().kind !== "none")) {
    throw new ApiError("forbidden", "A signed-in session may change things only from this site's own pages.");
  }
  return user;
}
