import "server-only";
import type { Principal } from "@/lib/shared/principal";
import {
  degradedCount,
  rejectionRate,
  utilization,
  type SecondRow,
  type Verdict,
} from "@/lib/control/alerts/conditions";
import { summaryOf, type AlertPayload } from "@/lib/control/alerts/payload";
import {
  activeRules,
  fireIncident,
  openIncidents,
  resolveIncident,
  ruleById,
  type ActiveRule,
  type JsonPayload,
  type OpenIncident,
} from "@/lib/control/data/alerts/engine";
import type { RowContext } from "@/lib/usage/read/rows";
import { detailFor, readAlertRows } from "@/lib/control/alerts/alert-rows";
import { measurableLimits, type Candidate } from "@/lib/control/data/usage/limit-candidates";

// One evaluation pass: every active rule against its tenant's per-second usage (already
// recorded by the check path, read back here: nothing is added to checks). A rule whose
// condition holds and has no open incident fires; an open incident whose rule no longer
// holds (or was disabled) resolves. Each tenant is read once per pass; a failure with one
// tenant does not stop the others.

const SYSTEM: Principal = { kind: "system", label: "alert evaluator" };
/** Windows up to an hour: the per-second data is kept that long by default. */
const MAX_WINDOW_MS = 3_600_000;
/** The last seconds may still be in a recorder's buffer (flushed every second). */
export const SETTLE_MS = 2_000;

export interface PassResult {
  fired: number;
  resolved: number;
  errors: string[];
}

function candidatesFor(rule: ActiveRule, limits: readonly Candidate[]): Candidate[] {
  if (rule.kind !== "utilization") return [];
  return limits.filter(
    (c) =>
      c.limit.name === rule.limitName &&
      c.limit.rule.windowMs <= MAX_WINDOW_MS &&
      (rule.keyId === null || c.keyIds === null || c.keyIds.includes(rule.keyId)) &&
      (rule.route === null || c.limit.route === null || c.limit.route === rule.route),
  );
}

function verdictOf(
  rule: ActiveRule,
  limits: readonly Candidate[],
  rows: readonly SecondRow[],
  now: number,
): Verdict {
  const filter = { keyId: rule.keyId, route: rule.route };
  const threshold = rule.thresholdPct ?? 0;
  if (rule.kind === "rejection_rate") return rejectionRate(rows, filter, now, rule.forSeconds, threshold);
  if (rule.kind === "degraded") return degradedCount(rows, filter, now, rule.forSeconds);
  let best: Verdict = { holds: false, value: 0, owner: null };
  for (const c of candidatesFor(rule, limits)) {
    const measured = {
      limit: c.limit.rule.limit,
      windowMs: c.limit.rule.windowMs,
      perKey: c.limit.by === "key",
      keyIds: c.keyIds,
      route: c.limit.route,
    };
    const v = utilization(rows, measured, filter, now, rule.forSeconds, threshold);
    if ((v.holds && !best.holds) || (v.holds === best.holds && v.value > best.value)) best = v;
  }
  return best;
}

/** How far back a rule reads: its "for", plus the window of the limit it measures. */
function spanMs(rule: ActiveRule, limits: readonly Candidate[]): number {
  const windows = candidatesFor(rule, limits).map((c) => c.limit.rule.windowMs);
  return rule.forSeconds * 1000 + Math.max(0, ...windows);
}

function payloadOf(
  rule: Pick<
    ActiveRule,
    "id" | "name" | "kind" | "limitName" | "keyId" | "route" | "thresholdPct" | "forSeconds" | "tenantSlug"
  >,
  event: AlertPayload["event"],
  value: number,
  owner: string | null,
) {
  return (incident: { id: string; firedAt: Date; resolvedAt: Date | null }): JsonPayload => {
    const base: Omit<AlertPayload, "summary"> = {
      event,
      tenant: rule.tenantSlug,
      rule: {
        id: rule.id,
        name: rule.name,
        kind: rule.kind,
        limit: rule.limitName,
        keyId: rule.keyId,
        route: rule.route,
        thresholdPct: rule.thresholdPct,
        forSeconds: rule.forSeconds,
      },
      incident: {
        id: incident.id,
        firedAt: incident.firedAt.toISOString(),
        resolvedAt: incident.resolvedAt?.toISOString() ?? null,
      },
      value: Math.round(value * 100) / 100,
      keyId: owner,
    };
    const payload: AlertPayload = { ...base, summary: summaryOf(base) };
    return payload;
  };
}

export async function evaluateOnce(ctx: RowContext): Promise<PassResult> {
  const now = Math.floor((ctx.now - SETTLE_MS) / 1000) * 1000;
  const [rules, open] = await Promise.all([activeRules(), openIncidents()]);
  const openByRule = new Map(open.map((o) => [o.ruleId, o]));
  const result: PassResult = { fired: 0, resolved: 0, errors: [] };
  const byTenant = new Map<string, ActiveRule[]>();
  for (const r of rules) byTenant.set(r.tenantId, [...(byTenant.get(r.tenantId) ?? []), r]);
  for (const [tenantId, list] of byTenant) {
    try {
      const slug = list[0]?.tenantSlug ?? "";
      const limits = list.some((r) => r.kind === "utilization")
        ? (await measurableLimits(SYSTEM, slug)).list
        : [];
      const from = now - Math.max(...list.map((r) => spanMs(r, limits)));
      const rows = await readAlertRows(tenantId, from, now, ctx, detailFor(list, limits));
      for (const rule of list) {
        const verdict = verdictOf(rule, limits, rows, now);
        const incident = openByRule.get(rule.id);
        openByRule.delete(rule.id);
        if (verdict.holds && !incident) {
          if (
            await fireIncident(rule, verdict.value, payloadOf(rule, "firing", verdict.value, verdict.owner))
          )
            result.fired++;
        } else if (!verdict.holds && incident) {
          if (
            await resolveIncident(
              incident,
              rule.endpointId,
              payloadOf(rule, "resolved", verdict.value, verdict.owner),
            )
          )
            result.resolved++;
        }
      }
    } catch (error) {
      result.errors.push(`tenant ${tenantId}: ${String(error)}`);
      for (const rule of list) openByRule.delete(rule.id);
    }
  }
  // Open incidents of rules no longer active (disabled rule or endpoint): resolved.
  for (const incident of openByRule.values()) result.resolved += await resolveOrphan(incident);
  return result;
}

async function resolveOrphan(incident: OpenIncident): Promise<number> {
  const rule = await ruleById(incident.ruleId);
  if (!rule) return 0;
  const payload = payloadOf({ ...rule, tenantSlug: rule.tenant.slug }, "resolved", 0, null);
  return (await resolveIncident(incident, rule.endpointId, payload)) ? 1 : 0;
}
