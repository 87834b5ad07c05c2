import type { Decision } from "./types";

// The RateLimit header fields of a decision, the server's exact rule
// (draft-ietf-httpapi-ratelimit-headers: one item per enforce limit that Redis evaluated;
// w and t in whole seconds, rounded up so a client never comes back too early). Computed
// from the body so that local and batch answers carry the same headers as single checks.

const seconds = (ms: number): number => Math.ceil(ms / 1000);

export function rateLimitHeaders(decision: Decision): Record<string, string> {
  let policy = "";
  let rateLimit = "";
  for (const limit of decision.limits) {
    if (limit.mode !== "enforce" || limit.remaining === null || limit.resetMs === null) continue;
    const sep = policy === "" ? "" : ", ";
    policy += `${sep}"${limit.name}";q=${limit.limit};w=${Math.max(1, seconds(limit.windowMs))}`;
    rateLimit += `${sep}"${limit.name}";r=${limit.remaining};t=${seconds(limit.resetMs)}`;
  }
  const headers: Record<string, string> = {};
  if (policy !== "") headers["RateLimit-Policy"] = policy;
  if (rateLimit !== "") headers["RateLimit"] = rateLimit;
  if (!decision.allowed && decision.retryAfterMs !== null) {
    headers["Retry-After"] = String(Math.max(1, seconds(decision.retryAfterMs)));
  }
  return headers;
}

/** Anything with setHeader (node:http, Express) or set (Headers, Fetch API). */
export type HeaderTarget =
  { setHeader(name: string, value: string): unknown } | { set(name: string, value: string): unknown };

/** Sets the RateLimit headers of a check result on a response or a Headers object. */
export function setRateLimitHeaders(target: HeaderTarget, result: { headers: Record<string, string> }): void {
  for (const [name, value] of Object.entries(result.headers)) {
    if ("setHeader" in target) target.setHeader(name, value);
    else target.set(name, value);
  }
}
