import type { DecisionBody } from "@/lib/check/types";

// RateLimit header fields per draft-ietf-httpapi-ratelimit-headers-11: both are
// Structured Field Lists with one item per evaluated enforce limit, the item a String
// (the policy name) with parameters:
//   RateLimit-Policy: "key-rps";q=100;w=1      q quota, w window in seconds
//   RateLimit:        "key-rps";r=0;t=5        r remaining quota, t seconds until reset
// The draft's w and t are integer seconds, so sub-second windows and resets round up
// (a client that waits t seconds must not come back too early). Limit names are
// [a-z0-9-], which need no escaping inside an sf-string. Limits that Redis did not
// evaluate (degraded) have no remaining quota to report and are left out; a list with no
// items is not sent at all (RFC 9651: an empty List field is omitted).

export interface RateLimitHeaders {
  policy: string | null;
  rateLimit: string | null;
  retryAfter: string | null;
}

const seconds = (ms: number): number => Math.ceil(ms / 1000);

export function rateLimitHeaders(body: DecisionBody): RateLimitHeaders {
  let policy = "";
  let rateLimit = "";
  for (const limit of body.limits) {
    if (limit.mode !== "enforce" || limit.remaining === null || limit.resetMs === null) continue;
    const sep = policy === "" ? "" : ", ";
    policy += `${sep}"${limit.name}";q=${limit.limit};w=${Math.max(1, seconds(limit.windowMs))}`;
    rateLimit += `${sep}"${limit.name}";r=${limit.remaining};t=${seconds(limit.resetMs)}`;
  }
  const retry = !body.allowed && body.retryAfterMs !== null ? String(seconds(body.retryAfterMs)) : null;
  return { policy: policy || null, rateLimit: rateLimit || null, retryAfter: retry };
}
