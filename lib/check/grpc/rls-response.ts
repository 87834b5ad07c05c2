import "server-only";
import type { RenderedDecision } from "@/lib/check/render/rendered";
import type { DecisionBody, LimitReport } from "@/lib/check/types";
import { gatewayHeaders, type HeaderValue } from "@/lib/check/grpc/gateway-headers";

// Sluice's decisions, one per descriptor in order, as Envoy's RateLimitResponse (field names as
// in proto/envoy/service/ratelimit/v3/rls.proto). Each descriptor's status names the limit
// that decided it (the decision's top-level limit): its quota, its window as Envoy's unit,
// what remains of it and when it resets; the overall code is OVER_LIMIT when any descriptor
// is denied; the RateLimit headers of the binding descriptor go to the client's response.

export type RlsCode = "OK" | "OVER_LIMIT";
export type RlsUnit = "UNKNOWN" | "SECOND" | "MINUTE" | "HOUR" | "DAY" | "WEEK" | "MONTH" | "YEAR";

export interface RlsDuration {
  seconds: number;
  nanos: number;
}

export interface RlsDescriptorStatus {
  code: RlsCode;
  current_limit?: { name: string; requests_per_unit: number; unit: RlsUnit };
  limit_remaining?: number;
  duration_until_reset?: RlsDuration;
}

export interface RlsResponse {
  overall_code: RlsCode;
  statuses: RlsDescriptorStatus[];
  response_headers_to_add: HeaderValue[];
}

const SECOND = 1000;
const DAY = 86_400 * SECOND;
/** Envoy's units by their length; a window of another length is UNKNOWN (its name says it) */
const UNITS = new Map<number, RlsUnit>([
  [SECOND, "SECOND"],
  [60 * SECOND, "MINUTE"],
  [3600 * SECOND, "HOUR"],
  [DAY, "DAY"],
  [7 * DAY, "WEEK"],
  [30 * DAY, "MONTH"],
  [365 * DAY, "YEAR"],
]);

const UINT32_MAX = 0xffff_ffff;

export function unitOf(windowMs: number): RlsUnit {
  return UNITS.get(windowMs) ?? "UNKNOWN";
}

export function durationOf(ms: number): RlsDuration {
  const whole = Math.max(0, Math.round(ms));
  return { seconds: Math.floor(whole / SECOND), nanos: (whole % SECOND) * 1_000_000 };
}

/** The enforce limit the decision's top-level fields describe (the deciding one), if any. */
function decidingLimit(body: DecisionBody): LimitReport | undefined {
  if (body.limit === null) return undefined;
  return body.limits.find(
    (limit) =>
      limit.mode === "enforce" &&
      limit.limit === body.limit &&
      limit.remaining === body.remaining &&
      limit.resetMs === body.resetMs,
  );
}

/** A descriptor's status, and its remaining quota (null: no limit decided it). */
export function descriptorStatus(decision: RenderedDecision): {
  status: RlsDescriptorStatus;
  remaining: number | null;
} {
  const code: RlsCode = decision.allowed ? "OK" : "OVER_LIMIT";
  const body = JSON.parse(decision.json) as DecisionBody;
  const deciding = decidingLimit(body);
  if (deciding === undefined) return { status: { code }, remaining: null };
  const status: RlsDescriptorStatus = {
    code,
    current_limit: {
      name: deciding.name,
      requests_per_unit: Math.min(UINT32_MAX, deciding.limit),
      unit: unitOf(deciding.windowMs),
    },
  };
  const remaining = body.remaining;
  if (remaining !== null) status.limit_remaining = Math.min(UINT32_MAX, Math.max(0, remaining));
  if (body.resetMs !== null) status.duration_until_reset = durationOf(body.resetMs);
  return { status, remaining };
}

export function rlsResponse(decisions: readonly RenderedDecision[]): RlsResponse {
  const statuses: RlsDescriptorStatus[] = [];
  let binding = -1;
  let bindingRemaining = Infinity;
  let over = false;
  for (let i = 0; i < decisions.length; i++) {
    const decision = decisions[i] as RenderedDecision;
    const { status, remaining } = descriptorStatus(decision);
    statuses.push(status);
    // the binding descriptor: the first denied one, else the one with the least left
    if (over) continue;
    if (!decision.allowed) {
      over = true;
      binding = i;
    } else if (remaining !== null && remaining < bindingRemaining) {
      binding = i;
      bindingRemaining = remaining;
    }
  }
  return {
    overall_code: over ? "OVER_LIMIT" : "OK",
    statuses,
    response_headers_to_add: binding < 0 ? [] : gatewayHeaders(decisions[binding] as RenderedDecision),
  };
}
