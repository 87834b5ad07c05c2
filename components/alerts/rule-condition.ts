// A rule in words, for the Alerts tab.

export interface RuleWords {
  kind: string;
  limitName: string | null;
  keyName: string | null;
  route: string | null;
  thresholdPct: number | null;
  forSeconds: number;
}

export function ruleCondition(r: RuleWords): string {
  const scope = [r.keyName ? `key ${r.keyName}` : "", r.route ? `route ${r.route}` : ""]
    .filter(Boolean)
    .join(", ");
  const where = scope ? ` (${scope})` : "";
  if (r.kind === "utilization")
    return `utilization of ${r.limitName} above ${r.thresholdPct}% for ${r.forSeconds} s${where}`;
  if (r.kind === "rejection_rate")
    return `rejection rate above ${r.thresholdPct}% over ${r.forSeconds} s${where}`;
  return `any degraded decision in ${r.forSeconds} s${where}`;
}
