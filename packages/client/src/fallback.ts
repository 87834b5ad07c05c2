import type { CheckRequest, ClientError, Decision } from "./types";

// The decision when Sluice could not be asked (unreachable, slower than the timeout, 5xx,
// or refusing the request): allowed or not by the client's `onUnavailable`, always marked
// degraded, with no limits (none were evaluated) and so no RateLimit headers.

export type OnUnavailable = "open" | "closed";

export function fallbackDecision(check: CheckRequest, onUnavailable: OnUnavailable): Decision {
  const open = onUnavailable === "open";
  return {
    allowed: open,
    reason: open ? "ok" : "sluice_unavailable",
    tenant: check.tenant ?? null,
    key: check.key ?? null,
    route: check.route ?? null,
    limit: null,
    remaining: null,
    resetMs: null,
    retryAfterMs: null,
    waitMs: 0,
    limits: [],
    degraded: true,
    configVersion: 0,
  };
}

/** A ClientError from what fetch threw. */
export function errorOf(thrown: unknown, timeoutMs: number): ClientError {
  const name = thrown instanceof Error ? thrown.name : "";
  if (name === "TimeoutError") return { kind: "timeout", message: `no answer within ${timeoutMs} ms` };
  if (name === "AbortError") return { kind: "aborted", message: "the caller aborted the check" };
  const cause = thrown instanceof Error && thrown.cause instanceof Error ? thrown.cause.message : "";
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return { kind: "network", message: cause ? `${message}: ${cause}` : message };
}

/** Whether the request provably never reached Sluice (so retrying cannot count twice). */
export function neverSent(thrown: unknown): boolean {
  const cause = thrown instanceof Error ? (thrown.cause as { code?: unknown } | undefined) : undefined;
  return cause?.code === "ECONNREFUSED";
}
