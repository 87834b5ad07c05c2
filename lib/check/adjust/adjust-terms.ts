// The terms of an adjustment (docs/api.md, "Adjusting a check"), shared by the endpoint, the
// script's reader and the reference model (lib/check/adjust/reference-model.ts).

/** How long after its check an id can be adjusted (its applied-ids record lives as long). */
export const ADJUST_WINDOW_MS = 300_000;

/** The most units one check may hold after its adjustments (the most one check may cost). */
export const MAX_HELD = 1_000_000;

export type AdjustStatus = "applied" | "replayed" | "expired" | "over_refund" | "over_charge";
export type AdjustEffect = "applied" | "clamped" | "none";

/** In lua/adjust/adjust.lua's numbering. */
export const ADJUST_STATUSES: readonly AdjustStatus[] = [
  "applied",
  "replayed",
  "expired",
  "over_refund",
  "over_charge",
];
export const ADJUST_EFFECTS: readonly AdjustEffect[] = ["applied", "clamped", "none"];

export interface AdjustResult {
  status: AdjustStatus;
  /** units the check holds after the adjustment (before it when refused) */
  held: number;
  nowMs: number;
  /** per limit the check consumed, in the check's order; empty when refused */
  effects: AdjustEffect[];
}

export interface AdjustRequest {
  /** units to charge (> 0) or refund (< 0), never 0 */
  amount: number;
  /** "" when none was given: one adjustment per check then */
  idempotencyKey: string;
}
