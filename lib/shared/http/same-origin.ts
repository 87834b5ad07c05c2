import "server-only";

// A cookie rides along on cross-site requests too, so a session may change things only from
// our own origin (CSRF). The host compared is the Host header; X-Forwarded-Host only when
// proxies are trusted (SLUICE_TRUSTED_PROXIES), since otherwise any client can write it.

export function sameOrigin(request: Request, forwardedHostTrusted: boolean): boolean {
  const origin = request.headers.get("origin");
  if (origin !== null) {
    const forwarded = forwardedHostTrusted ? request.headers.get("x-forwarded-host") : null;
    // A chain of proxies may list several: the first is the host the browser asked for.
    const host = forwarded?.split(",")[0]?.trim() || request.headers.get("host");
    try {
      return host !== null && host !== undefined && new URL(origin).host === host;
    } catch {
      return false;
    }
  }
  // Browsers send Origin on every cross-site unsafe request; absent, Fetch Metadata decides.
  const site = request.headers.get("sec-fetch-site");
  return site === null || site === "same-origin";
}
