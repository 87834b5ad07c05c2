import type { Algorithm, LimitBy, LimitMode } from "@/lib/shared/limit-types";
import type { LimitLevel } from "@/lib/shared/config-terms";

// The shapes of the check contract (docs/api.md, POST /api/check), shared by the pipeline,
// the HTTP layer and the tests. Field names and meanings are the contract's.

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
  | "store_unavailable";

/**
 * Why a degraded answer was not Redis' verdict (docs/api.md, Degraded answers): Redis had the
 * check timeout and did not answer, the connection failed (no connection, an error), the
 * circuit breaker skipped Redis, this process stalled past the deadline (its own event loop,
 * not Redis), or Redis answered something the limiter cannot read.
 */
export type DegradedCause =
  "redis_timeout" | "connection_lost" | "breaker_open" | "local_overload" | "limiter_error";

export const DEGRADED_CAUSES: readonly DegradedCause[] = [
  "redis_timeout",
  "connection_lost",
  "breaker_open",
  "local_overload",
  "limiter_error",
];

/** How a limiter call failed: the label of sluice_store_failures_total. */
export type StoreFailure = "timeout" | "error" | "circuit_open" | "local_overload";

/** A validated check body: exactly one of apiKey or tenant is set. */
export interface CheckInput {
  apiKey: string | null;
  tenant: string | null;
  key: string | null;
  route: string | null;
  subject: string | null;
  cost: number;
  dryRun: boolean;
  /** answer a checkId for POST /api/check/adjust (docs/api.md, "Adjusting a check") */
  adjustable?: boolean;
}

/** One limit in a decision body. remaining/resetMs are null when Redis was not reached. */
export interface LimitReport {
  name: string;
  level: LimitLevel;
  by: LimitBy;
  algorithm: Algorithm;
  limit: number;
  windowMs: number;
  remaining: number | null;
  resetMs: number | null;
  allowed: boolean;
  mode: LimitMode;
  /** present while a temporary override applies to the limit (docs/overrides.md) */
  override?: { id: string; endsAt: string };
}

/** The 200 body of POST /api/check (docs/api.md). */
export interface DecisionBody {
  allowed: boolean;
  reason: DecisionReason;
  tenant: string | null;
  key: string | null;
  route: string | null;
  limit: number | null;
  remaining: number | null;
  resetMs: number | null;
  retryAfterMs: number | null;
  waitMs: number;
  limits: LimitReport[];
  degraded: boolean;
  /** present on degraded answers only */
  cause?: DegradedCause;
  configVersion: number;
  /** adjustable checks that Redis counted: the id for POST /api/check/adjust */
  checkId?: string;
  /** an admitted check's lease, when it has concurrency limits: release it when the request ends */
  lease?: string;
}

export interface ErrorBody {
  error: { code: string; message: string; path?: string };
}

/** What a usage sink learns of each decision (one call per decision, no I/O expected). */
export type DecisionOutcome = "allowed" | "rejected" | "shadow_rejected" | "degraded";
