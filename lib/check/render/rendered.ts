import { rateLimitHeaders } from "@/lib/check/headers";
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
  /** "ratelimit-policy: ...\r\n", "ratelimit: ...\r\n", "retry-after: ...\r\n" as they apply */
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

export function renderBody(body: DecisionBody): RenderedDecision {
  const { policy, rateLimit, retryAfter } = rateLimitHeaders(body);
  return {
    json: asciiJson(body),
    headers: headerLines(policy, rateLimit, retryAfter),
    allowed: body.allowed,
    reason: body.reason,
    outcome: outcomeOf(body),
    retryAfterMs: body.retryAfterMs,
    cause: body.cause ?? null,
  };
}
