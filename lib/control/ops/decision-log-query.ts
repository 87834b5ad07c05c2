import "server-only";
import { z } from "zod";
import { NAME_PATTERN, NAME_RULE } from "@/lib/control/config/document";
import { CounterQuery } from "@/lib/control/counters/counter-query";
import { safeText } from "@/lib/shared/safe-text";
import { LOG_PER_TENANT } from "@/lib/usage/recent";

// The decision log's filters (GET /api/admin/decisions and the Decisions tab): the tenant,
// the identifier fields of the lookup, what the answer was, and how far back.

export const LOG_OUTCOMES = ["allowed", "rejected", "shadow_rejected", "degraded"] as const;

export const LOG_REASONS = [
  "ok",
  "rate_limited",
  "cost_exceeds_capacity",
  "unknown_key",
  "revoked_key",
  "expired_key",
  "suspended_tenant",
  "store_unavailable",
] as const;

/** The most rows one answer (JSON or CSV) carries: the whole sample of both lists. */
export const LOG_MAX_ROWS = 2 * LOG_PER_TENANT;

export const DecisionLogQuery = CounterQuery.extend({
  outcome: z.enum(LOG_OUTCOMES, { error: `must be one of ${LOG_OUTCOMES.join(", ")}` }).optional(),
  reason: z.enum(LOG_REASONS, { error: `must be one of ${LOG_REASONS.join(", ")}` }).optional(),
  /** the name of the limit that denied */
  deniedBy: safeText(z.string().regex(NAME_PATTERN, { error: NAME_RULE })).optional(),
  /** only entries of the last N minutes */
  minutes: z.coerce
    .number({ error: "must be a whole number of minutes" })
    .int({ error: "must be a whole number of minutes" })
    .min(1, { error: "must be at least 1" })
    .max(1_440, { error: "must be at most 1440 (24 h)" })
    .optional(),
  limit: z.coerce
    .number({ error: "must be a whole number" })
    .int({ error: "must be a whole number" })
    .min(1, { error: "must be at least 1" })
    .max(LOG_MAX_ROWS, { error: `must be at most ${LOG_MAX_ROWS}` })
    .optional(),
  format: z.enum(["json", "csv"], { error: 'must be "json" or "csv"' }).optional(),
});
export type DecisionLogQuery = z.output<typeof DecisionLogQuery>;

/** The filter fields the page's form carries. */
export const LOG_FILTER_FIELDS = [
  "key",
  "route",
  "subject",
  "outcome",
  "reason",
  "deniedBy",
  "minutes",
] as const;
