import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/shared/env";
import {
  commonSecurityHeaders,
  contentSecurityPolicy,
  isApiPath,
  newNonce,
} from "@/lib/shared/http/security-headers";
import { isMalformedPath, malformedPathBody, malformedPathPage } from "@/lib/control/api/malformed-path";

// Security headers on every answer Next.js gives: a nonce-based CSP on pages
// (Next reads the nonce from the request's CSP header and puts it on its own scripts), and
// nosniff, a referrer policy, no framing and HSTS (NEXTAUTH_URL https) everywhere; admin API
// answers are never cached. Headers only: authorization stays in the DAL and route handlers.
// A path that does not percent-decode is answered here with a 400 (lib/http/malformed-path.ts).

function malformedPathAnswer(api: boolean): NextResponse {
  return api
    ? NextResponse.json(malformedPathBody, { status: 400 })
    : new NextResponse(malformedPathPage, {
        status: 400,
        headers: { "content-type": "text/html; charset=utf-8" },
      });
}

export function proxy(request: NextRequest): NextResponse {
  const settings = env();
  const https = settings.NEXTAUTH_URL?.startsWith("https:") ?? false;
  const { pathname } = request.nextUrl;
  const requestHeaders = new Headers(request.headers);
  let csp: string | null = null;
  if (!isApiPath(pathname)) {
    const nonce = newNonce();
    csp = contentSecurityPolicy(nonce, settings.NODE_ENV === "development");
    requestHeaders.set("x-nonce", nonce);
    requestHeaders.set("content-security-policy", csp);
  }
  const response = isMalformedPath(pathname)
    ? malformedPathAnswer(isApiPath(pathname))
    : NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(commonSecurityHeaders(https))) response.headers.set(name, value);
  if (csp !== null) response.headers.set("content-security-policy", csp);
  if (pathname.startsWith("/api/admin/")) response.headers.set("cache-control", "no-store");
  return response;
}

export const config = {
  // Not on build assets (immutable files; the root layout's answers carry the policy), nor on
  // the document import, whose bodies (up to 32 MiB) Next would buffer for the proxy before
  // the route may refuse them unread; withAdmin sets the same API headers there.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|api/admin/config$).*)"],
};
