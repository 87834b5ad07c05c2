import { rateLimitHeaders, singleLines } from "@/lib/check/headers";
import type { HeaderFlavour } from "@/lib/shared/config-terms";
import { outcomeOf } from "@/lib/check/decision-body";
import type { DecisionBody, DecisionOutcome, DecisionReason, DegradedCause } from "@/lib/check/types";
import { asciiJson } from "@/lib/shared/ascii-json";

// A decision as it leaves the server: its JSON body and RateLimit header lines, plus what
// usage and the deny cache need to know of it. Decisions from Redis are rendered straight
// from the script's integers (decision-template.ts); the rest (unknown keys, suspended
// tenants, degraded answers...) from a DecisionBody object, here.

export interface RenderedDecision {
  /** the 200 body of docs/api.md, ASCII only (lib/shared/ascii-json.ts) */
  json: string;
  /** "ratelimit-policy: ...\r\n", "ratelimit: ...\r\n", "retry-after: ...\r\n" as they apply
   * (the tenant's header flavour's lines, lib/check/headers.ts) */
  headers: string;
  allowed: boolean;
  reason: DecisionReason;
  outcome: DecisionOutcome;
  /** the body's retryAfterMs (null when allowed or when waiting cannot help) */
  retryAfterMs: number | null;
  /** why a degraded answer is degraded; null for every other answer */
  cause: DegradedCause | null;
}

export function headerLines(
  policy: string | null,
  rateLimit: string | null,
  retryAfter: string | null,
): string {
  let lines = "";
  if (policy !== null) lines += `ratelimit-policy: ${policy}\r\n`;
  if (rateLimit !== null) lines += `ratelimit: ${rateLimit}\r\n`;
  if (retryAfter !== null) lines += `retry-after: ${retryAfter}\r\n`;
  return lines;
}

/** `nowMs` dates legacy-epoch's reset (the limiter's clock where there is one). */
export function renderBody(
  body: DecisionBody,
  flavour: HeaderFlavour = "draft-11",
  nowMs: number = Date.now(),
): RenderedDecision {
  const { policy, rateLimit, retryAfter } = rateLimitHeaders(body);
  const headers =
    flavour === "draft-11"
      ? headerLines(policy, rateLimit, retryAfter)
      : singleLines(body, flavour, nowMs) + headerLines(null, null, retryAfter);
  return {
    json: asciiJson(body),
    headers,
    allowed: body.allowed,
    reason: body.reason,
    outcome: outcomeOf(body),
    retryAfterMs: body.retryAfterMs,
    cause: body.cause ?? null,
  };
}
