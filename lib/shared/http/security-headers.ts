// The security headers of the dashboard and the admin API (CSP, no framing, HSTS), set by proxy.ts on
// every answer Next.js gives. Pure: the proxy passes the nonce and whether the public URL is
// https. (The check path, lib/check/http, answers outside Next and sets its own.)

/** A fresh per-request nonce: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/**
 * Scripts only from this origin with the request's nonce ('strict-dynamic': what they load
 * may run); no plugins, no framing, forms and <base> only to this origin. Style elements
 * need the nonce too, but style attributes may be inline: React renders recharts' and the
 * dashboard's `style` props as attributes into the server HTML, and CSS cannot run script.
 */
export function contentSecurityPolicy(nonce: string, dev = false): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Headers every answer gets; HSTS only when the public URL is https. */
export function commonSecurityHeaders(https: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
  };
  if (https) headers["strict-transport-security"] = "max-age=63072000; includeSubDomains";
  return headers;
}

/** Whether a path is an API answer (no CSP: not a document) or a page. */
export function isApiPath(pathname: string): boolean {
  return pathname === "/api" || pathname.startsWith("/api/");
}
