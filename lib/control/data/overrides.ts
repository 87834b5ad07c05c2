import "server-only";
import { z } from "zod";
import { actorLabel, hasRole, isOperator, type Principal } from "@/lib/shared/principal";
import { formatDate } from "@/lib/shared/format-date";
import { db } from "@/lib/control/data/db";
import type { CompiledLimit } from "@/lib/control/config/compile";
import { runTenantChange } from "@/lib/control/data/config-change";
import { limitsNamed } from "@/lib/control/config/compile/limits-named";
import { latestSnapshot } from "@/lib/control/data/counters-store";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/control/errors/errors";
import { imposedBy } from "@/lib/control/config/compile/imposed-limits";
import { tenantFor } from "@/lib/control/data/tenant-access";
import {
  MAX_OVERRIDES_PER_TENANT,
  overrideWindow,
  type OverrideInput,
} from "@/lib/control/overrides/override-input";
import { overrideView, OVERRIDE_SELECT, type OverrideView } from "@/lib/control/data/override-view";
import { exactnessProblem } from "@/lib/shared/limit-exactness";
import type { Tx } from "@/lib/control/data/tx";

// Creating and ending temporary overrides (docs/overrides.md). Each is a config change
// (audited, a new version, published): servers then apply and drop the override at its
// times by themselves. Roles as for editing limits: editor in the tenant, and an operator
// when the limit is a plan's or a global route's (one the tenant did not set itself).

/** A 400 naming the field, as zod's own refusals are. */
function fieldError(field: string, message: string): z.ZodError {
  return new z.ZodError([{ code: "custom", path: [field], message, input: undefined }]);
}

/** The compiled limits the override would change, checked against who asks. */
async function targetLimits(principal: Principal, input: OverrideInput): Promise<CompiledLimit[]> {
  const snapshot = await latestSnapshot();
  const tenant = snapshot?.tenants[input.tenant];
  if (!tenant) throw new NotFoundError(`No tenant named ${input.tenant}.`);
  if (input.key !== undefined && !tenant.keys[input.key])
    throw fieldError("key", `tenant ${input.tenant} has no key named ${input.key}`);
  let limits = limitsNamed(tenant, input.limit, input.key ?? null);
  if (input.subject !== undefined) limits = limits.filter((limit) => limit.by === "subject");
  if (limits.length === 0) {
    const where = input.subject !== undefined ? " counted by subject" : "";
    throw fieldError(
      "limit",
      `no limit named ${input.limit}${where} applies to tenant ${input.tenant} there`,
    );
  }
  const imposed = isOperator(principal) ? [] : limits.flatMap((limit) => imposedBy(limit) ?? []);
  if (imposed.length > 0)
    throw new ForbiddenError(
      `Only an operator can override ${input.limit}: it is imposed by ${[...new Set(imposed)].join(", ")}.`,
    );
  if (typeof input.value === "number" && input.value > 0)
    for (const limit of limits) {
      const problem = exactnessProblem({ ...limit.rule, limit: input.value, burst: null });
      if (problem) throw fieldError("value", problem);
    }
  return limits;
}

async function apiKeyId(tx: Tx, tenantId: string, input: OverrideInput): Promise<string | null> {
  if (input.key === undefined) return null;
  const key = await tx.apiKey.findUnique({
    where: { tenantId_name: { tenantId, name: input.key } },
    select: { id: true },
  });
  if (!key) throw fieldError("key", `tenant ${input.tenant} has no key named ${input.key}`);
  return key.id;
}

export async function createOverride(
  principal: Principal,
  input: OverrideInput,
  requestId: string | null,
): Promise<OverrideView> {
  const now = Date.now();
  const window = overrideWindow(input, now);
  if ("field" in window) throw fieldError(window.field, window.message);
  const outcome = await runTenantChange(input.tenant, principal, requestId, async (tx, audit) => {
    const tenant = await tenantFor(tx, principal, input.tenant, "editor");
    await targetLimits(principal, input);
    const keyId = await apiKeyId(tx, tenant.id, input);
    const current = await tx.override.findMany({
      where: { tenantId: tenant.id, endsAt: { gt: new Date(now) } },
      select: { apiKeyId: true, subject: true, limitName: true, startsAt: true, endsAt: true, endedAt: true },
    });
    const live = current.filter((o) => o.endedAt === null || o.endedAt.getTime() > now);
    if (live.length >= MAX_OVERRIDES_PER_TENANT)
      throw new ConflictError(
        `Tenant ${input.tenant} has ${MAX_OVERRIDES_PER_TENANT} overrides in force or waiting; end one first.`,
        "tenant",
      );
    // Two overrides of the same limit and target at once would leave which one wins unclear.
    const clash = live.find(
      (o) =>
        o.limitName === input.limit &&
        o.apiKeyId === keyId &&
        o.subject === (input.subject ?? null) &&
        o.startsAt.getTime() < window.endsAt &&
        (o.endedAt ?? o.endsAt).getTime() > window.startsAt,
    );
    if (clash)
      throw new ConflictError(
        `An override of ${input.limit} for the same target already runs ${formatDate(clash.startsAt)} to ${formatDate(clash.endsAt)}; end it first.`,
        "startsAt",
      );
    const row = await tx.override.create({
      data: {
        tenantId: tenant.id,
        apiKeyId: keyId,
        subject: input.subject ?? null,
        limitName: input.limit,
        limit: input.value === "disabled" ? null : input.value,
        startsAt: new Date(window.startsAt),
        endsAt: new Date(window.endsAt),
        reason: input.reason,
        createdBy: actorLabel(principal),
        createdById: principal.kind === "user" ? principal.id : null,
      },
      select: OVERRIDE_SELECT,
    });
    const view = overrideView(row, now);
    await audit({
      action: "override.create",
      targetType: "override",
      targetId: row.id,
      tenantId: tenant.id,
      after: view,
    });
    return view;
  });
  return outcome.result;
}

/** Ends an override now (one not yet started is cancelled). */
export async function endOverride(
  principal: Principal,
  id: string,
  requestId: string | null,
): Promise<OverrideView> {
  const found = await findOverride(principal, id);
  const outcome = await runTenantChange(found.tenant.slug, principal, requestId, async (tx, audit) => {
    const tenant = await tenantFor(tx, principal, found.tenant.slug, "editor");
    const row = await tx.override.findFirst({ where: { id, tenantId: tenant.id }, select: OVERRIDE_SELECT });
    if (!row) throw new NotFoundError(`No override ${id}.`);
    const now = Date.now();
    const before = overrideView(row, now);
    if (before.state === "ended") throw new ConflictError(`Override ${id} has already ended.`, "id");
    if (!isOperator(principal)) {
      const snapshot = await latestSnapshot();
      const compiled = snapshot?.tenants[tenant.slug];
      const limits = compiled ? limitsNamed(compiled, row.limitName, row.apiKey?.name ?? null) : [];
      const imposed = limits.flatMap((limit) => imposedBy(limit) ?? []);
      if (imposed.length > 0)
        throw new ForbiddenError(
          `Only an operator can end an override of ${row.limitName}: it is imposed by ${imposed[0]}.`,
        );
    }
    const ended = await tx.override.update({
      where: { id },
      data: { endedAt: new Date(now), endedBy: actorLabel(principal) },
      select: OVERRIDE_SELECT,
    });
    const after = overrideView(ended, now);
    await audit({
      action: "override.end",
      targetType: "override",
      targetId: id,
      tenantId: tenant.id,
      before,
      after,
    });
    return after;
  });
  return outcome.result;
}

/** The override's tenant, for taking that tenant's change lock; another tenant's is "not found". */
async function findOverride(principal: Principal, id: string): Promise<{ tenant: { slug: string } }> {
  const row = await db().override.findUnique({
    where: { id },
    select: { tenantId: true, tenant: { select: { slug: true } } },
  });
  if (!row || !hasRole(principal, row.tenantId, "viewer")) throw new NotFoundError(`No override ${id}.`);
  return row;
}
