import type { DecisionBody } from "@/lib/check/types";
import type { CompiledTenant } from "@/lib/check/published/snapshot-types";
import { DEFAULT_HEADER_FLAVOUR, HEADER_FLAVOURS, type HeaderFlavour } from "@/lib/shared/config-terms";

// RateLimit header fields, in the flavour the tenant chose (docs/api.md, "Header flavours").
//
// draft-11 (the default), per draft-ietf-httpapi-ratelimit-headers-11: both fields are
// Structured Field Lists with one item per evaluated enforce limit, the item a String
// (the policy name) with parameters:
//   RateLimit-Policy: "key-rps";q=100;w=1      q quota, w window in seconds
//   RateLimit:        "key-rps";r=0;t=5        r remaining quota, t seconds until reset
// The draft's w and t are integer seconds, so sub-second windows and resets round up
// (a client that waits t seconds must not come back too early). Limit names are
// [a-z0-9-], which need no escaping inside an sf-string. Limits that Redis did not
// evaluate (degraded) have no remaining quota to report and are left out; a list with no
// items is not sent at all (RFC 9651: an empty List field is omitted). A concurrency limit
// is a quota of the draft's unit "concurrent-requests": `"in-flight";q=10;qu="concurrent-requests"`,
// with no w (its leases are not counted per window); its t is until the latest lease expires.
//
// The other flavours carry one limit, the binding one (bindsBefore): draft-7
// `RateLimit: limit=100, remaining=50, reset=30` + `RateLimit-Policy: 100;w=60`, draft-6
// `RateLimit-Limit`/`-Remaining`/`-Reset` + the same policy, legacy `X-RateLimit-Limit`/
// `-Remaining`/`-Reset` (seconds until reset)/`-Used` (limit - remaining), legacy-epoch the
// same with Reset as a Unix time in seconds. Each is split into a head made once per limit
// (singleHead) and a tail made per answer (singleTail), so the check path's templates
// (render/decision-template.ts) render them with the same text as this object path.

/** The tenant's header flavour; a value this server does not know (a newer one's) reads as the default. */
export function flavourOf(tenant: Pick<CompiledTenant, "headers"> | null | undefined): HeaderFlavour {
  const flavour = tenant?.headers;
  return flavour !== undefined && HEADER_FLAVOURS.includes(flavour) ? flavour : DEFAULT_HEADER_FLAVOUR;
}

export interface RateLimitHeaders {
  policy: string | null;
  rateLimit: string | null;
  retryAfter: string | null;
}

const seconds = (ms: number): number => Math.ceil(ms / 1000);

/** What follows q in a draft-11 policy item: the window, or a concurrency limit's unit. */
export function policyTail(algorithm: DecisionBody["limits"][number]["algorithm"], windowMs: number): string {
  return algorithm === "concurrency" ? ';qu="concurrent-requests"' : `;w=${Math.max(1, seconds(windowMs))}`;
}

export function rateLimitHeaders(body: DecisionBody): RateLimitHeaders {
  let policy = "";
  let rateLimit = "";
  for (const limit of body.limits) {
    if (limit.mode !== "enforce" || limit.remaining === null || limit.resetMs === null) continue;
    const sep = policy === "" ? "" : ", ";
    policy += `${sep}"${limit.name}";q=${limit.limit}${policyTail(limit.algorithm, limit.windowMs)}`;
    rateLimit += `${sep}"${limit.name}";r=${limit.remaining};t=${seconds(limit.resetMs)}`;
  }
  const retry = !body.allowed && body.retryAfterMs !== null ? String(seconds(body.retryAfterMs)) : null;
  return { policy: policy || null, rateLimit: rateLimit || null, retryAfter: retry };
}

/** The flavours that report one limit. */
export type SingleFlavour = Exclude<HeaderFlavour, "draft-11">;

/**
 * Whether limit a binds before limit b: a limit that denied before one that admitted,
 * then the least remaining share of its quota (remaining / limit), then the later reset.
 * The first listed wins a full tie, so callers keep the earlier one when this is false.
 */
export function bindsBefore(
  aDenied: boolean,
  aRemaining: number,
  aQuota: number,
  aResetMs: number,
  bDenied: boolean,
  bRemaining: number,
  bQuota: number,
  bResetMs: number,
): boolean {
  if (aDenied !== bDenied) return aDenied;
  // a blocked limit (an override to 0) has no quota to share out
  const aShare = aQuota > 0 ? aRemaining / aQuota : 0;
  const bShare = bQuota > 0 ? bRemaining / bQuota : 0;
  if (aShare !== bShare) return aShare < bShare;
  return aResetMs > bResetMs;
}

/** The header text of a single-valued flavour up to the remaining count. */
export function singleHead(flavour: SingleFlavour, quota: number, windowMs: number): string {
  const policy = `ratelimit-policy: ${quota};w=${Math.max(1, seconds(windowMs))}\r\n`;
  switch (flavour) {
    case "draft-7":
      return `${policy}ratelimit: limit=${quota}, remaining=`;
    case "draft-6":
      return `${policy}ratelimit-limit: ${quota}\r\nratelimit-remaining: `;
    case "legacy":
    case "legacy-epoch":
      return `x-ratelimit-limit: ${quota}\r\nx-ratelimit-remaining: `;
  }
}

/** The rest of a single-valued flavour's text; `nowMs` dates legacy-epoch's reset. */
export function singleTail(
  flavour: SingleFlavour,
  quota: number,
  remaining: number,
  resetMs: number,
  nowMs: number,
): string {
  switch (flavour) {
    case "draft-7":
      return `${remaining}, reset=${seconds(resetMs)}\r\n`;
    case "draft-6":
      return `${remaining}\r\nratelimit-reset: ${seconds(resetMs)}\r\n`;
    case "legacy":
      return `${remaining}\r\nx-ratelimit-reset: ${seconds(resetMs)}\r\nx-ratelimit-used: ${Math.max(0, quota - remaining)}\r\n`;
    case "legacy-epoch":
      return `${remaining}\r\nx-ratelimit-reset: ${seconds(nowMs + resetMs)}\r\nx-ratelimit-used: ${Math.max(0, quota - remaining)}\r\n`;
  }
}

/** The RateLimit lines of a single-valued flavour for a decision body ("" with no limit to report). */
export function singleLines(body: DecisionBody, flavour: SingleFlavour, nowMs: number): string {
  let best: DecisionBody["limits"][number] | null = null;
  for (const limit of body.limits) {
    if (limit.mode !== "enforce" || limit.remaining === null || limit.resetMs === null) continue;
    if (
      best === null ||
      bindsBefore(
        !limit.allowed,
        limit.remaining,
        limit.limit,
        limit.resetMs,
        !best.allowed,
        best.remaining as number,
        best.limit,
        best.resetMs as number,
      )
    )
      best = limit;
  }
  if (best === null) return "";
  return (
    singleHead(flavour, best.limit, best.windowMs) +
    singleTail(flavour, best.limit, best.remaining as number, best.resetMs as number, nowMs)
  );
}
