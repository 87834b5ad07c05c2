import "server-only";
import { actorLabel, type Principal } from "@/lib/shared/principal";
import type { Audit } from "@/lib/control/data/audit";
import type { Tx } from "@/lib/control/data/tx";
import { OVERRIDE_SELECT, overrideView } from "@/lib/control/data/override-view";

// What a rollback to a version does besides the configuration document: overrides and
// alert rules are not part of the kept document, so their later history is undone from
// the audit log, in the rollback's own change. Overrides made since are ended; alert rules
// made since are disabled, rules disabled since are enabled again (when their endpoint
// still is). Overrides ended since stay ended (an ended override is not brought back).

export interface RollbackExtras {
  /** overrides made since the version and still in force or waiting: ended */
  overridesEnded: string[];
  /** alert rules (by name) made since: disabled */
  alertRulesDisabled: string[];
  /** alert rules (by name) disabled since: enabled again */
  alertRulesEnabled: string[];
}

export function noExtras(): RollbackExtras {
  return { overridesEnded: [], alertRulesDisabled: [], alertRulesEnabled: [] };
}

/** Targets of `action` entries after `version` (of these tenants, or all). */
async function laterTargets(
  tx: Tx,
  action: string,
  version: number,
  tenantIds: string[] | null,
): Promise<string[]> {
  const rows = await tx.auditEntry.findMany({
    where: {
      action,
      configVersion: { gt: version },
      ...(tenantIds ? { tenantId: { in: tenantIds } } : {}),
    },
    select: { targetId: true },
  });
  return [...new Set(rows.flatMap((r) => (r.targetId ? [r.targetId] : [])))];
}

/** Undoes overrides and alert rules made or disabled after `version`; returns how many changed. */
interface RuleRow {
  id: string;
  tenantId: string;
  name: string;
  kind: string;
}

/** Disables (at `disabledAt`) or enables (null) the rules, each audited; their names. */
async function switchRules(tx: Tx, audit: Audit, rules: readonly RuleRow[], disabledAt: Date | null) {
  for (const rule of rules) {
    await tx.alertRule.update({ where: { id: rule.id }, data: { disabledAt } });
    const view = { name: rule.name, kind: rule.kind };
    await audit({
      action: disabledAt ? "alert-rule.disable" : "alert-rule.enable",
      targetType: "alert-rule",
      targetId: rule.id,
      tenantId: rule.tenantId,
      ...(disabledAt ? { before: view } : { after: view }),
    });
  }
  return rules.map((rule) => rule.name);
}

export async function undoLaterExtras(
  tx: Tx,
  principal: Principal,
  audit: Audit,
  version: number,
  tenantIds: string[] | null,
  into: RollbackExtras,
): Promise<number> {
  const now = new Date();
  const scoped = tenantIds ? { tenantId: { in: tenantIds } } : {};
  const madeOverrides = await laterTargets(tx, "override.create", version, tenantIds);
  const live = await tx.override.findMany({
    where: { id: { in: madeOverrides }, ...scoped, endsAt: { gt: now }, endedAt: null },
    select: { ...OVERRIDE_SELECT, tenantId: true },
  });
  for (const row of live) {
    const ended = await tx.override.update({
      where: { id: row.id },
      data: { endedAt: now, endedBy: actorLabel(principal) },
      select: OVERRIDE_SELECT,
    });
    const at = now.getTime();
    await audit({
      action: "override.end",
      targetType: "override",
      targetId: row.id,
      tenantId: row.tenantId,
      before: overrideView(row, at),
      after: overrideView(ended, at),
    });
    into.overridesEnded.push(`${row.tenant.slug}: ${row.limitName} (${row.id})`);
  }
  const madeRules = await laterTargets(tx, "alert-rule.create", version, tenantIds);
  const toDisable = await tx.alertRule.findMany({
    where: { id: { in: madeRules }, ...scoped, disabledAt: null },
  });
  into.alertRulesDisabled.push(...(await switchRules(tx, audit, toDisable, now)));
  const disabledSince = (await laterTargets(tx, "alert-rule.disable", version, tenantIds)).filter(
    (id) => !madeRules.includes(id),
  );
  const toEnable = await tx.alertRule.findMany({
    where: {
      id: { in: disabledSince },
      ...scoped,
      disabledAt: { not: null },
      endpoint: { disabledAt: null },
    },
  });
  into.alertRulesEnabled.push(...(await switchRules(tx, audit, toEnable, null)));
  return live.length + toDisable.length + toEnable.length;
}
