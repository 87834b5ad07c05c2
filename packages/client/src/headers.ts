import type { Decision } from "./types";

// The RateLimit header fields of a decision, the server's exact rule (lib/check/headers.ts)
// in each flavour (docs/api.md, "Header flavours"). draft-11, the default: one item per
// enforce limit that Redis evaluated; w and t in whole seconds, rounded up so a client never
// comes back too early. The other flavours report the binding limit only. Computed from the
// body so that local and batch answers carry the same headers as single checks.

const seconds = (ms: number): number => Math.ceil(ms / 1000);

export const HEADER_FLAVOURS = ["draft-11", "draft-7", "draft-6", "legacy", "legacy-epoch"] as const;
export type HeaderFlavour = (typeof HEADER_FLAVOURS)[number];

/** Throws, naming the option, for a flavour that is not one of HEADER_FLAVOURS. */
export function checkHeaderFlavour(flavour: unknown, field = "headers"): void {
  if (flavour !== undefined && !HEADER_FLAVOURS.includes(flavour as HeaderFlavour))
    throw new Error(`${field}: must be one of ${HEADER_FLAVOURS.join(", ")}, got ${String(flavour)}`);
}

type Reported = Decision["limits"][number] & { remaining: number; resetMs: number };

/**
 * The limit single-valued flavours report: one that denied before one that admitted, then
 * the least remaining share of its quota, then the later reset, then the first listed.
 */
function binding(decision: Decision): Reported | null {
  let best: Reported | null = null;
  let bestShare = 0;
  for (const limit of decision.limits) {
    if (limit.mode !== "enforce" || limit.remaining === null || limit.resetMs === null) continue;
    const share = limit.limit > 0 ? limit.remaining / limit.limit : 0;
    const better =
      best === null ||
      (!limit.allowed && best.allowed) ||
      (limit.allowed === best.allowed &&
        (share < bestShare || (share === bestShare && limit.resetMs > best.resetMs)));
    if (better) {
      best = limit as Reported;
      bestShare = share;
    }
  }
  return best;
}

function singleHeaders(
  limit: Reported,
  flavour: Exclude<HeaderFlavour, "draft-11">,
  nowMs: number,
): Record<string, string> {
  const policy = `${limit.limit};w=${Math.max(1, seconds(limit.windowMs))}`;
  const reset = String(seconds(limit.resetMs));
  switch (flavour) {
    case "draft-7":
      return {
        "RateLimit-Policy": policy,
        RateLimit: `limit=${limit.limit}, remaining=${limit.remaining}, reset=${reset}`,
      };
    case "draft-6":
      return {
        "RateLimit-Policy": policy,
        "RateLimit-Limit": String(limit.limit),
        "RateLimit-Remaining": String(limit.remaining),
        "RateLimit-Reset": reset,
      };
    case "legacy":
    case "legacy-epoch":
      return {
        "X-RateLimit-Limit": String(limit.limit),
        "X-RateLimit-Remaining": String(limit.remaining),
        "X-RateLimit-Reset": flavour === "legacy" ? reset : String(seconds(nowMs + limit.resetMs)),
        "X-RateLimit-Used": String(Math.max(0, limit.limit - limit.remaining)),
      };
  }
}

/** The decision's header fields in `flavour` (default draft-11); `nowMs` dates legacy-epoch's reset. */
export function rateLimitHeaders(
  decision: Decision,
  flavour: HeaderFlavour = "draft-11",
  nowMs: number = Date.now(),
): Record<string, string> {
  if (flavour !== "draft-11") {
    const limit = binding(decision);
    const headers: Record<string, string> = limit === null ? {} : singleHeaders(limit, flavour, nowMs);
    if (!decision.allowed && decision.retryAfterMs !== null)
      headers["Retry-After"] = String(Math.max(1, seconds(decision.retryAfterMs)));
    return headers;
  }
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
