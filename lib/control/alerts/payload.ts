// What a webhook carries. JSON by default; endpoints in the "slack" format get the shape a
// Slack incoming webhook accepts ({ text }), the same summary line. Isomorphic. Stored as
// JSON with each delivery, so read back through the schema.

import { z } from "zod";

export const alertPayloadSchema = z.object({
  event: z.enum(["firing", "resolved"]),
  tenant: z.string(),
  rule: z.object({
    id: z.string(),
    name: z.string(),
    kind: z.string(),
    limit: z.string().nullable(),
    keyId: z.string().nullable(),
    route: z.string().nullable(),
    thresholdPct: z.number().nullable(),
    forSeconds: z.number(),
  }),
  incident: z.object({ id: z.string(), firedAt: z.string(), resolvedAt: z.string().nullable() }),
  /** the measured value when it fired: percent (utilization, rejection_rate) or a count (degraded) */
  value: z.number(),
  /** the key the value is of, for per-key limits */
  keyId: z.string().nullable(),
  summary: z.string(),
});
export type AlertPayload = z.output<typeof alertPayloadSchema>;

function condition(rule: AlertPayload["rule"]): string {
  const where = [rule.keyId ? `key ${rule.keyId}` : "", rule.route ? `route ${rule.route}` : ""].filter(
    Boolean,
  );
  const scope = where.length ? ` (${where.join(", ")})` : "";
  if (rule.kind === "utilization")
    return `utilization of ${rule.limit} above ${rule.thresholdPct}% for ${rule.forSeconds}s${scope}`;
  if (rule.kind === "rejection_rate")
    return `rejection rate above ${rule.thresholdPct}% over ${rule.forSeconds}s${scope}`;
  return `degraded decisions in the last ${rule.forSeconds}s${scope}`;
}

export function summaryOf(p: Omit<AlertPayload, "summary">): string {
  const measured = p.rule.kind === "degraded" ? `${p.value} degraded` : `${p.value.toFixed(1)}%`;
  const state = p.event === "firing" ? "FIRING" : "RESOLVED";
  return `[Sluice] ${state} ${p.tenant} / ${p.rule.name}: ${condition(p.rule)} (${measured})`;
}

/** The body sent for an endpoint's format. */
export function bodyFor(format: string, payload: AlertPayload): string {
  return JSON.stringify(format === "slack" ? { text: payload.summary } : payload);
}
