import "server-only";
import { hasRole, isOperator, type Principal } from "@/lib/shared/principal";
import type { ConfigDocument, PlanDoc, RouteDoc, TenantDoc } from "@/lib/control/config/document";
import { canonicalPlan, canonicalRoutes, canonicalTenant } from "@/lib/control/config/import/canonical";
import { ConflictError, NotFoundError } from "@/lib/control/errors/errors";
import { db } from "@/lib/control/data/db";
import type { AuditInput } from "@/lib/control/data/audit";
import { importConfig } from "@/lib/control/data/import-config";
import { readDocument } from "@/lib/control/data/read-document";
import { readGlobalDoc, readTenantDoc } from "@/lib/control/data/edits/document-edit";
import { endOverride } from "@/lib/control/data/overrides";
import { disableAlertRule } from "@/lib/control/data/alerts/rules";
import { describeConflicts, revertValue, stableJson } from "@/lib/control/audit/revert-three-way";
import { isRevertible } from "@/lib/control/audit/revertible";
import type { Tx } from "@/lib/control/data/tx";

// "Revert this change" (any revertible audit entry) and the limit editor's undo (the one
// change a save made): the inverse of the recorded change, applied three ways on today's
// configuration (revert-three-way.ts) as a new, audited version through the import. When a later
// change touched the same thing, it is refused, naming what; nothing is written. The
// import re-reads the part under its lock and refuses if it moved since it was read here.

export interface RevertResult {
  configVersion: number | null;
  /** what was reverted, e.g. "tenant.update acme (version 12)" */
  reverted: string;
}

type Entry = NonNullable<Awaited<ReturnType<typeof findEntry>>>;
type Kind = "revert" | "undo";

function findEntry(id: bigint) {
  return db().auditEntry.findUnique({ where: { id } });
}

function visible(principal: Principal, entry: { tenantId: string | null }): boolean {
  return entry.tenantId === null ? isOperator(principal) : hasRole(principal, entry.tenantId, "viewer");
}

export async function revertEntry(
  principal: Principal,
  id: string,
  requestId: string | null,
): Promise<RevertResult> {
  const entry = /^\d{1,18}$/.test(id) ? await findEntry(BigInt(id)) : null;
  if (!entry || !visible(principal, entry)) throw new NotFoundError(`No audit entry ${id}.`);
  return revertOne(principal, entry, requestId, "revert");
}

/** Undoes the one revertible change config version `version` made (a save's undo). */
export async function undoVersion(
  principal: Principal,
  version: number,
  requestId: string | null,
): Promise<RevertResult> {
  const entries = (await db().auditEntry.findMany({ where: { configVersion: version } })).filter(
    (e) => visible(principal, e) && isRevertible(e.action),
  );
  const [entry] = entries;
  if (!entry) throw new NotFoundError(`Config version ${version} made no change that can be undone.`);
  if (entries.length > 1)
    throw new ConflictError(`Config version ${version} made several changes; revert them from the history.`);
  return revertOne(principal, entry, requestId, "undo");
}

function noteOf(entry: Entry, kind: Kind): AuditInput {
  return {
    action: kind === "undo" ? "config.undo" : "config.revert",
    targetType: entry.targetType,
    targetId: entry.targetId,
    tenantId: entry.tenantId,
    after: { revertedEntry: entry.id.toString(), revertedVersion: entry.configVersion },
  };
}

function label(entry: Entry): string {
  return `${entry.action} ${entry.targetId ?? entry.targetType} (version ${entry.configVersion ?? "none"})`;
}

/** The reverted value, or a refusal naming what changed since. */
function inverse(current: unknown, entry: Entry): unknown {
  const outcome = revertValue(current, entry.before ?? undefined, entry.after ?? undefined);
  if (!outcome.ok)
    throw new ConflictError(
      `Changed since by a later change, so nothing was reverted: ${describeConflicts(outcome.conflicts)}.`,
    );
  if (stableJson(outcome.value) === stableJson(current))
    throw new ConflictError(`Nothing to revert: ${label(entry)} is already undone.`);
  return outcome.value;
}

async function revertOne(principal: Principal, entry: Entry, requestId: string | null, kind: Kind) {
  const note = noteOf(entry, kind);
  const done = (configVersion: number | null): RevertResult => ({ configVersion, reverted: label(entry) });
  switch (entry.action) {
    case "tenant.update": {
      const slug = entry.targetId ?? "";
      const current = canonicalTenant(await readTenantDoc(principal, slug, "editor"));
      const next = inverse(current, entry) as TenantDoc;
      const unmoved = async (tx: Tx) => {
        const doc = (await readDocument(tx, entry.tenantId ? [entry.tenantId] : [])).tenants?.[0];
        return doc ? canonicalTenant(doc) : null;
      };
      const result = await importConfig(
        principal,
        { tenants: [next] },
        {
          requestId,
          note,
          within: guard(unmoved, current),
        },
      );
      return done(result.configVersion);
    }
    case "plan.create":
    case "plan.update":
    case "plan.delete": {
      const plans = (await readGlobalDoc(principal)).plans.map(canonicalPlan);
      const name = entry.targetId ?? "";
      const next = inverse(
        plans.find((p) => p.name === name),
        entry,
      ) as PlanDoc | undefined;
      const list = plans.filter((p) => p.name !== name);
      const at = plans.findIndex((p) => p.name === name);
      if (next) list.splice(at < 0 ? list.length : at, 0, next);
      const unmoved = async (tx: Tx) => ((await readDocument(tx, [])).plans ?? []).map(canonicalPlan);
      const result = await importConfig(
        principal,
        { plans: list },
        { requestId, note, within: guard(unmoved, plans) },
      );
      return done(result.configVersion);
    }
    case "route.update": {
      const routes = canonicalRoutes((await readGlobalDoc(principal)).routes);
      const next = inverse(routes, entry) as RouteDoc[];
      const unmoved = async (tx: Tx) => canonicalRoutes((await readDocument(tx, [])).routes ?? []);
      const document: ConfigDocument = { routes: next };
      const result = await importConfig(principal, document, {
        requestId,
        note,
        within: guard(unmoved, routes),
      });
      return done(result.configVersion);
    }
    case "override.create": {
      const ended = await endOverride(principal, entry.targetId ?? "", requestId);
      return done(ended ? await versionOf(entry.targetId, "override.end") : null);
    }
    case "alert-rule.create":
      return done(await disableRule(principal, entry, requestId));
    default:
      throw new ConflictError(`A ${entry.action} change cannot be reverted on its own.`);
  }
}

/** The import's first step: refuse when the part moved since the revert read it. */
function guard(read: (tx: Tx) => Promise<unknown>, seen: unknown) {
  return async (tx: Tx): Promise<number> => {
    if (stableJson(await read(tx)) !== stableJson(seen))
      throw new ConflictError("It changed while being reverted; nothing was written. Look again and retry.");
    return 0;
  };
}

async function versionOf(targetId: string | null, action: string): Promise<number | null> {
  const row = await db().auditEntry.findFirst({
    where: { targetId, action },
    orderBy: { id: "desc" },
    select: { configVersion: true },
  });
  return row?.configVersion ?? null;
}

async function disableRule(
  principal: Principal,
  entry: Entry,
  requestId: string | null,
): Promise<number | null> {
  const rule = await db().alertRule.findFirst({
    where: { id: entry.targetId ?? "", tenantId: entry.tenantId ?? "" },
    select: { disabledAt: true, tenant: { select: { slug: true } } },
  });
  if (!rule) throw new NotFoundError(`No alert rule ${entry.targetId}.`);
  if (rule.disabledAt) throw new ConflictError("Nothing to revert: the alert rule is already disabled.");
  await disableAlertRule(principal, rule.tenant.slug, entry.targetId ?? "", requestId);
  return versionOf(entry.targetId, "alert-rule.disable");
}
