// What a webhook carries. JSON by default; endpoints in the "slack" format get the shape a
// Slack incoming webhook accepts ({ text }), the same summary line. Isomorphic.

export interface AlertPayload {
  event: "firing" | "resolved";
  tenant: string;
  rule: {
    id: string;
    name: string;
    kind: string;
    limit: string | null;
    keyId: string | null;
    route: string | null;
    thresholdPct: number | null;
    forSeconds: number;
  };
  incident: { id: string; firedAt: string; resolvedAt: string | null };
  /** the measured value when it fired: percent (utilization, rejection_rate) or a count (degraded) */
  value: number;
  /** the key the value is of, for per-key limits */
  keyId: string | null;
  summary: string;
}

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
