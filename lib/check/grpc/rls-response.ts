import "server-only";
import type { RenderedDecision } from "@/lib/check/render/rendered";
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

/** What a status needs of a decision's JSON (ASCII, lib/check/render): its top-level fields and each limit's. */
const TOP = /,"limit":(\d+|null),"remaining":(-?\d+|null),"resetMs":(\d+|null),/;
const LIMIT =
  /\{"name":"([a-z0-9-]*)",[^{}]*?"limit":(\d+),"windowMs":(\d+),"remaining":(-?\d+|null),"resetMs":(\d+|null),"allowed":(?:true|false),"mode":"(\w+)"/g;

const numberOr = (text: string | undefined): number | null =>
  text === undefined || text === "null" ? null : Number(text);

interface Deciding {
  name: string;
  limit: number;
  windowMs: number;
}

/**
 * The enforce limit the decision's top-level fields describe (the deciding one), read from the
 * rendered JSON without parsing all of it: names are [a-z0-9-] and the texts before the limits
 * (tenant, key, route) hold no `"limit":` of their own, so the first match is the top level.
 */
function decidingLimit(json: string): {
  deciding: Deciding | null;
  remaining: number | null;
  resetMs: number | null;
} {
  const top = TOP.exec(json);
  const limit = numberOr(top?.[1]);
  const remaining = numberOr(top?.[2]);
  const resetMs = numberOr(top?.[3]);
  if (limit === null) return { deciding: null, remaining, resetMs };
  const from = json.indexOf(',"limits":[');
  LIMIT.lastIndex = from < 0 ? 0 : from;
  for (let match = LIMIT.exec(json); match !== null; match = LIMIT.exec(json)) {
    if (match[6] !== "enforce" || Number(match[2]) !== limit) continue;
    if (numberOr(match[4]) !== remaining || numberOr(match[5]) !== resetMs) continue;
    LIMIT.lastIndex = 0;
    return { deciding: { name: match[1] as string, limit, windowMs: Number(match[3]) }, remaining, resetMs };
  }
  LIMIT.lastIndex = 0;
  return { deciding: null, remaining, resetMs };
}

/** A descriptor's status, and its remaining quota (null: no limit decided it). */
export function descriptorStatus(decision: RenderedDecision): {
  status: RlsDescriptorStatus;
  remaining: number | null;
} {
  const code: RlsCode = decision.allowed ? "OK" : "OVER_LIMIT";
  const { deciding, remaining, resetMs } = decidingLimit(decision.json);
  if (deciding === null) return { status: { code }, remaining: null };
  const status: RlsDescriptorStatus = {
    code,
    current_limit: {
      name: deciding.name,
      requests_per_unit: Math.min(UINT32_MAX, deciding.limit),
      unit: unitOf(deciding.windowMs),
    },
  };
  if (remaining !== null) status.limit_remaining = Math.min(UINT32_MAX, Math.max(0, remaining));
  if (resetMs !== null) status.duration_until_reset = durationOf(resetMs);
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
