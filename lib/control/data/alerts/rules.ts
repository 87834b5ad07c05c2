import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { runTenantChange } from "@/lib/control/data/config-change";
import { db } from "@/lib/control/data/db";
import { ConflictError, NotFoundError } from "@/lib/control/errors/errors";
import { tenantFor } from "@/lib/control/data/tenant-access";
import { CreateRuleInput } from "@/lib/control/alerts/input/inputs";
import { measurableLimits } from "@/lib/control/data/usage/limit-candidates";

// Alert rules of a tenant (editors and above). A rule names its endpoint and key by name,
// looked up inside the tenant only: another tenant's ids cannot be reached from here.
// Disabled, never deleted (the evaluator then resolves an open alert). Audited changes.

export const MAX_RULES_PER_TENANT = 100;

export interface RuleView {
  id: string;
  name: string;
  kind: string;
  limitName: string | null;
  keyName: string | null;
  route: string | null;
  thresholdPct: number | null;
  forSeconds: number;
  endpoint: string;
  disabledAt: Date | null;
  /** an alert of this rule is firing now */
  firing: boolean;
}

export async function createAlertRule(
  principal: Principal,
  slug: string,
  raw: CreateRuleInput,
  requestId: string | null = null,
): Promise<RuleView> {
  const input = CreateRuleInput.parse(raw);
  if (input.limit !== undefined) await assertMeasurable(principal, slug, input.limit);
  const { result } = await runTenantChange(slug, principal, requestId, async (tx, audit) => {
    const tenant = await tenantFor(tx, principal, slug, "editor");
    const endpoint = await tx.alertEndpoint.findUnique({
      where: { tenantId_name: { tenantId: tenant.id, name: input.endpoint } },
    });
    if (!endpoint || endpoint.disabledAt)
      throw new ConflictError(`endpoint: no active endpoint named ${input.endpoint}`, "endpoint");
    const key = input.key
      ? await tx.apiKey.findUnique({ where: { tenantId_name: { tenantId: tenant.id, name: input.key } } })
      : null;
    if (input.key && !key) throw new ConflictError(`key: no API key named ${input.key}`, "key");
    if ((await tx.alertRule.count({ where: { tenantId: tenant.id } })) >= MAX_RULES_PER_TENANT)
      throw new ConflictError(`A tenant has at most ${MAX_RULES_PER_TENANT} alert rules.`);
    if (
      await tx.alertRule.findUnique({ where: { tenantId_name: { tenantId: tenant.id, name: input.name } } })
    )
      throw new ConflictError(`name: a rule named ${input.name} already exists`, "name");
    const row = await tx.alertRule.create({
      data: {
        tenantId: tenant.id,
        name: input.name,
        kind: input.kind,
        limitName: input.limit ?? null,
        keyId: key?.id ?? null,
        route: input.route ?? null,
        thresholdPct: input.thresholdPct ?? null,
        forSeconds: input.forSeconds,
        endpointId: endpoint.id,
      },
    });
    await audit({
      action: "alert-rule.create",
      targetType: "alert-rule",
      targetId: row.id,
      tenantId: tenant.id,
      after: { ...input },
    });
    return {
      id: row.id,
      name: row.name,
      kind: row.kind,
      limitName: row.limitName,
      keyName: key?.name ?? null,
      route: row.route,
      thresholdPct: row.thresholdPct,
      forSeconds: row.forSeconds,
      endpoint: endpoint.name,
      disabledAt: null,
      firing: false,
    };
  });
  return result;
}

/** A utilization rule must name a limit the usage data can measure (see docs/alerts.md). */
async function assertMeasurable(principal: Principal, slug: string, limit: string): Promise<void> {
  const { list } = await measurableLimits(principal, slug);
  if (!list.some((c) => c.limit.name === limit))
    throw new ConflictError(
      `limit: ${slug} has no limit named ${limit} that alerts can measure (enforced, by tenant or key)`,
      "limit",
    );
}

export async function listAlertRules(principal: Principal, slug: string): Promise<RuleView[]> {
  const tenant = await tenantFor(db(), principal, slug, "viewer");
  const [rows, keys, open] = await Promise.all([
    db().alertRule.findMany({
      where: { tenantId: tenant.id },
      include: { endpoint: { select: { name: true } } },
      orderBy: { name: "asc" },
    }),
    db().apiKey.findMany({ where: { tenantId: tenant.id }, select: { id: true, name: true } }),
    db().alertIncident.findMany({
      where: { tenantId: tenant.id, resolvedAt: null },
      select: { ruleId: true },
    }),
  ]);
  const keyNames = new Map(keys.map((k) => [k.id, k.name]));
  const firing = new Set(open.map((o) => o.ruleId));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    kind: r.kind,
    limitName: r.limitName,
    keyName: r.keyId ? (keyNames.get(r.keyId) ?? r.keyId) : null,
    route: r.route,
    thresholdPct: r.thresholdPct,
    forSeconds: r.forSeconds,
    endpoint: r.endpoint.name,
    disabledAt: r.disabledAt,
    firing: firing.has(r.id),
  }));
}

/** Disables a rule by id, within the tenant only (another tenant's id: not found). */
export async function disableAlertRule(
  principal: Principal,
  slug: string,
  ruleId: string,
  requestId: string | null = null,
): Promise<void> {
  await runTenantChange(slug, principal, requestId, async (tx, audit) => {
    const tenant = await tenantFor(tx, principal, slug, "editor");
    const row = await tx.alertRule.findFirst({ where: { id: ruleId, tenantId: tenant.id } });
    if (!row) throw new NotFoundError(`No alert rule ${ruleId} in ${slug}.`);
    if (row.disabledAt) return;
    await tx.alertRule.update({ where: { id: row.id }, data: { disabledAt: new Date() } });
    await audit({
      action: "alert-rule.disable",
      targetType: "alert-rule",
      targetId: row.id,
      tenantId: tenant.id,
      before: { name: row.name, kind: row.kind },
    });
  });
}
