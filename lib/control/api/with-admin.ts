import "server-only";
import { randomUUID } from "node:crypto";
import type { Principal } from "@/lib/shared/principal";
import { errorResponse } from "@/lib/control/api/map-error";
import { resolvePrincipal } from "@/lib/control/api/resolve-principal";
import { ApiError } from "@/lib/control/api/api-error";
import { isSafeText, SAFE_TEXT_RULE } from "@/lib/shared/safe-text";
import { commonSecurityHeaders } from "@/lib/shared/http/security-headers";
import { env } from "@/lib/shared/env";

// The one wrapper around every /api/admin route handler (after dub's withWorkspace): a
// request id, the caller resolved before the handler runs, and every thrown error turned
// into the docs/api.md error body. Handlers parse their input with zod first and call the DAL,
// which checks roles and tenant scope itself.

export interface AdminContext<P> {
  request: Request;
  principal: Principal;
  requestId: string;
  params: P;
}

type RouteContext<P> = { params: Promise<P> };

export type AdminHandler<P> = (context: AdminContext<P>) => Promise<Response>;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The caller's x-request-id when it is sane (to follow a call across systems), else a new one. */
export function requestIdOf(request: Request): string {
  const given = request.headers.get("x-request-id");
  return given !== null && REQUEST_ID.test(given) ? given : randomUUID();
}

/** Path parameters (a tenant slug, a key name) reach queries: NUL there is a 400, not a 500. */
function checkParams(params: unknown): void {
  if (typeof params !== "object" || params === null) return;
  for (const [name, value] of Object.entries(params)) {
    const parts: unknown[] = Array.isArray(value) ? value : [value];
    if (parts.some((part) => typeof part === "string" && !isSafeText(part)))
      throw new ApiError("invalid_request", `${name}: ${SAFE_TEXT_RULE}`, name);
  }
}

export function withAdmin<P = Record<string, never>>(
  handler: AdminHandler<P>,
): (request: Request, context: RouteContext<P>) => Promise<Response> {
  return async (request, context) => {
    const requestId = requestIdOf(request);
    try {
      const principal = await resolvePrincipal(request);
      const params = await context.params;
      checkParams(params);
      return withApiHeaders(await handler({ request, principal, requestId, params }), requestId);
    } catch (error) {
      return withApiHeaders(errorResponse(error, requestId), requestId);
    }
  };
}

/**
 * proxy.ts's API headers, set here too: the document import route is left out of the proxy,
 * which would otherwise make Next buffer a copy of every body (up to 32 MiB) before the route
 * could refuse it (one document at a time, the document budget) without reading it.
 */
function withApiHeaders(response: Response, requestId: string): Response {
  response.headers.set("x-request-id", requestId);
  if (!response.headers.has("cache-control")) response.headers.set("cache-control", "no-store");
  const https = env().NEXTAUTH_URL?.startsWith("https:") ?? false;
  for (const [name, value] of Object.entries(commonSecurityHeaders(https))) {
    if (!response.headers.has(name)) response.headers.set(name, value);
  }
  return response;
}
