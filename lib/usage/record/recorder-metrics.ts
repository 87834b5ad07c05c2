import "server-only";
import { registry } from "@/lib/check/check-metrics";
import type { Cell } from "@/lib/shared/metrics-registry";

// The usage recorder's health in /api/metrics: decisions it could not write (dropped after
// their retries, or never held: the batch was full), units sent again, and what waits now.

export interface RecorderMetrics {
  dropped: Cell;
  retried: Cell;
  pending: Cell;
}

let cells: RecorderMetrics | undefined;

export function recorderMetrics(): RecorderMetrics {
  cells ??= {
    dropped: registry
      .counter(
        "sluice_usage_dropped_decisions_total",
        "Decisions the usage recorder could not count (its batch was full, or Redis refused them for a minute).",
      )
      .cell(),
    retried: registry
      .counter(
        "sluice_usage_flush_retries_total",
        "Tenant flush units sent again after a failed usage flush.",
      )
      .cell(),
    pending: registry
      .gauge(
        "sluice_usage_pending_decisions",
        "Decisions counted but not yet written to Redis (waiting for a retry).",
      )
      .cell(),
  };
  return cells;
}
