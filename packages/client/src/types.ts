// The check contract of Sluice's POST /api/check and /api/check/batch (docs/client.md),
// typed for callers. Field names and meanings are the server's (lib/check/types.ts and
// lib/enforce/body-schema.ts); a unit test holds the two sets of types together.

/** One check: exactly one of `apiKey` or `tenant` (optionally with `key`). */
export type CheckRequest = CheckCommon &
  ({ apiKey: string; tenant?: never; key?: never } | { tenant: string; key?: string; apiKey?: never });

interface CheckCommon {
  /** "METHOD /path", e.g. "GET /users/:id" or "GET /users/42" (matched server-side) */
  route?: string;
  /** whom `by: subject` limits count: a user id, a client address... (1..256 characters) */
  subject?: string;
  /** units this request uses, 1..1,000,000 (default 1) */
  cost?: number;
  /** decide without consuming */
  dryRun?: boolean;
  /** answer a `checkId` for adjust() (costs known after the response; docs/client.md) */
  adjustable?: boolean;
}

export type DecisionReason =
  | "ok"
  | "rate_limited"
  | "cost_exceeds_capacity"
  | "penalty"
  | "unknown_key"
  | "revoked_key"
  | "expired_key"
  | "suspended_tenant"
  | "deny_list"
  | "unknown_tenant"
  | "store_unavailable"
  /** the client's own: Sluice could not be asked (see ClientError) */
  | "sluice_unavailable";

/**
 * Why a degraded decision did not come from Redis' counters: Redis had the check timeout
 * and did not answer, the connection was lost, the server's circuit breaker skipped Redis,
 * the server itself stalled past the deadline (its CPU, not Redis), or Redis' answer could
 * not be read. docs/api.md, "Degraded answers".
 */
export type DegradedCause =
  "redis_timeout" | "connection_lost" | "breaker_open" | "local_overload" | "limiter_error";

export interface LimitReport {
  name: string;
  level: "plan" | "tenant" | "key" | "route";
  by: "tenant" | "key" | "subject";
  algorithm:
    | "token_bucket"
    | "leaky_bucket"
    | "gcra"
    | "fixed_window"
    | "sliding_log"
    | "sliding_window"
    | "concurrency"
    | "calendar";
  limit: number;
  windowMs: number;
  remaining: number | null;
  resetMs: number | null;
  allowed: boolean;
  mode: "enforce" | "shadow";
  /** present while a temporary override applies to the limit: its id and end (ISO 8601) */
  override?: { id: string; endsAt: string };
}

/** The 200 body of POST /api/check. */
export interface Decision {
  allowed: boolean;
  reason: DecisionReason;
  tenant: string | null;
  key: string | null;
  route: string | null;
  limit: number | null;
  remaining: number | null;
  resetMs: number | null;
  retryAfterMs: number | null;
  /** for `action: delay` limits: wait this long before serving */
  waitMs: number;
  limits: LimitReport[];
  degraded: boolean;
  /** on the server's degraded decisions only (a fallback decision has `error` instead) */
  cause?: DegradedCause;
  configVersion: number;
  /** adjustable checks that Sluice counted: the id to charge or refund with adjust() */
  checkId?: string;
  /** an admitted check's lease when it has concurrency limits: pass it to release() when the request ends */
  lease?: string;
}

/** What adjust() sends: units to charge (> 0) or refund (< 0), and the retry key. */
export interface AdjustOptions {
  /** a retried adjustment with the same checkId and key does nothing (default: one key per check) */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** The 200 answer of POST /api/check/adjust. */
export interface Adjustment {
  checkId: string;
  /** true: this idempotency key was used before; nothing changed */
  replayed: boolean;
  /** units the check holds now: its cost plus its adjustments */
  held: number;
  /** per limit the check consumed: applied, clamped (at zero or capacity) or none (window passed) */
  effects: Array<"applied" | "clamped" | "none">;
}

/** What adjust() answers: never thrown. */
export type AdjustResult = ({ ok: true } & Adjustment) | { ok: false; error: ClientError };

export type ClientErrorKind = "timeout" | "network" | "http" | "invalid_answer" | "aborted";

/** Why a decision did not come from Sluice. */
export interface ClientError {
  kind: ClientErrorKind;
  message: string;
  /** the HTTP status, for kind "http" */
  status?: number;
  /** the server's error code (e.g. "invalid_request", "unauthorized"), when it sent one */
  code?: string;
  /** the server's field path of an invalid check */
  path?: string;
}

/** What check() answers: the decision, its RateLimit headers, and where it came from. */
export interface CheckResult extends Decision {
  /** RateLimit-Policy, RateLimit and (when denied) Retry-After, ready to send */
  headers: Record<string, string>;
  /** "sluice": answered by the server; "local": the local deny cache; "fallback": onUnavailable */
  source: "sluice" | "local" | "fallback";
  /** set when source is "fallback" */
  error?: ClientError;
}
