import "server-only";
import { documentAt } from "@/lib/control/data/config-versions";
import { z } from "zod";
import { isOperator, type Principal } from "@/lib/shared/principal";
import { NAME_PATTERN, NAME_RULE, type ConfigDocument } from "@/lib/control/config/document";
import { db } from "@/lib/control/data/db";
import { ForbiddenError, NotFoundError } from "@/lib/control/errors/errors";
import { importConfig, type ImportResult } from "@/lib/control/data/import-config";
import { tenantFor } from "@/lib/control/data/tenant-access";
import { noExtras, undoLaterExtras, type RollbackExtras } from "@/lib/control/data/edits/rollback-extras";

// One-click rollback: the document kept with an earlier version goes through the import
// path like any other (validated against today's keys, plans, caps and rights, all or
// nothing) and becomes a new, audited version. A tenant's rollback restores that tenant's
// part only (anyone who may edit it); the whole configuration (pruning what came later)
// only operators. Overrides and alert rules are not in the kept document: what was made or
// disabled since is undone in the same change (rollback-extras.ts).

export const RollbackInput = z.strictObject({
  version: z
    .number({ error: "must be a config version" })
    .int({ error: "must be a config version" })
    .min(1, { error: "must be a config version" })
    .max(2_147_483_647, { error: "must be a config version" }),
  tenant: z.string().regex(NAME_PATTERN, { error: NAME_RULE }).optional(),
  dryRun: z.boolean().default(false),
});
export type RollbackInput = z.infer<typeof RollbackInput>;

export interface RollbackResult extends ImportResult, RollbackExtras {
  /** the version whose configuration was restored */
  restored: number;
  dryRun: boolean;
}

export async function keptDocument(version: number): Promise<ConfigDocument> {
  const exists = await db().configVersion.findUnique({ where: { version }, select: { version: true } });
  if (!exists) throw new NotFoundError(`No config version ${version}.`);
  const document = await documentAt(version);
  if (document === null)
    throw new NotFoundError(`Config version ${version} predates the history: its document was not kept.`);
  return document;
}

export async function rollbackConfig(
  principal: Principal,
  input: RollbackInput,
  requestId: string | null,
): Promise<RollbackResult> {
  const tenant = input.tenant ? await tenantFor(db(), principal, input.tenant, "viewer") : null;
  if (!tenant && !isOperator(principal))
    throw new ForbiddenError("Only operators can roll back the whole configuration; name your tenant.");
  const kept = await keptDocument(input.version);
  let document: ConfigDocument = kept;
  if (tenant) {
    const part = kept.tenants?.find((t) => t.slug === tenant.slug);
    if (!part)
      throw new NotFoundError(`Tenant ${tenant.slug} did not exist at config version ${input.version}.`);
    document = { tenants: [part] };
  }
  const extras = noExtras();
  const result = await importConfig(principal, document, {
    prune: tenant === null,
    dryRun: input.dryRun,
    requestId,
    within: (tx, audit) =>
      undoLaterExtras(tx, principal, audit, input.version, tenant ? [tenant.id] : null, extras),
    note: {
      action: "config.rollback",
      targetType: tenant ? "tenant" : "config",
      targetId: tenant?.slug ?? null,
      tenantId: tenant?.id ?? null,
      after: { restoredVersion: input.version },
    },
  });
  return { ...result, ...extras, restored: input.version, dryRun: input.dryRun };
}
