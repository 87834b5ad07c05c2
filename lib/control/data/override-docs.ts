import "server-only";
import { hasRole, isOperator, actorLabel, type Principal } from "@/lib/shared/principal";
import { compileSnapshot, type IdMap } from "@/lib/control/config/compile";
import type { ConfigDocument, DocumentError, OverrideDoc } from "@/lib/control/config/document";
import type { Audit } from "@/lib/control/data/audit";
import { limitsNamed } from "@/lib/control/config/compile/limits-named";
import { ValidationFailed } from "@/lib/control/errors/errors";
import { imposedBy } from "@/lib/control/config/compile/imposed-limits";
import { capAndOverlapErrors } from "@/lib/control/data/override-import-rules";
import { MAX_OVERRIDE_MS } from "@/lib/control/overrides/override-input";
import {
  effectiveEnd,
  OVERRIDE_SELECT,
  overrideView,
  unendedOverrideRows,
} from "@/lib/control/data/override-view";
import type { Tx } from "@/lib/control/data/tx";

// Overrides in the configuration document (docs/overrides.md): export writes those in force
// or waiting with their times; import creates the ones it does not hold (by id), checked as
// the API checks them except that a restored one may have started already. Ended ones are
// not brought back; overrides a document leaves out are left as they are. The cap and the
// overlap rule are the API's (override-import-rules.ts); createdBy is always the importer.

/** The overrides in force or waiting, for export (of these tenants only, when given). */
export async function readOverrideDocs(
  tx: Tx,
  now: number,
  onlyTenantIds?: string[],
): Promise<OverrideDoc[]> {
  const rows = await unendedOverrideRows(tx, now, onlyTenantIds);
  return rows
    .filter((row) => effectiveEnd(row).getTime() > Math.max(now, row.startsAt.getTime()))
    .map((row) => ({
      id: row.id,
      tenant: row.tenant.slug,
      ...(row.apiKey ? { key: row.apiKey.name } : {}),
      ...(row.subject !== null ? { subject: row.subject } : {}),
      limit: row.limitName,
      value: row.limit === null ? "disabled" : row.limit,
      startsAt: row.startsAt.toISOString(),
      endsAt: effectiveEnd(row).toISOString(),
      reason: row.reason,
      createdBy: row.createdBy,
    }));
}

function problemsOf(
  doc: OverrideDoc,
  path: string,
  principal: Principal,
  document: ConfigDocument,
  ids: IdMap,
  now: number,
): DocumentError[] {
  const errors: DocumentError[] = [];
  const err = (field: string, message: string) => errors.push({ path: `${path}.${field}`, message });
  const startsAt = Date.parse(doc.startsAt);
  const endsAt = Date.parse(doc.endsAt);
  if (endsAt <= startsAt) err("endsAt", "must be after startsAt");
  if (endsAt > now + MAX_OVERRIDE_MS) err("endsAt", "must be within 90 days from now");
  if (doc.key !== undefined && doc.subject !== undefined) err("subject", "give a key or a subject, not both");
  const tenantId = ids.tenants[doc.tenant];
  if (tenantId === undefined || !(document.tenants ?? []).some((t) => t.slug === doc.tenant)) {
    err("tenant", `no tenant named ${doc.tenant}`);
    return errors;
  }
  if (!hasRole(principal, tenantId, "editor"))
    err("tenant", "your role in this tenant cannot create overrides");
  if (doc.key !== undefined && ids.keys[doc.tenant]?.[doc.key] === undefined)
    err("key", `tenant ${doc.tenant} has no key named ${doc.key}`);
  return errors;
}

/** Creates the document's overrides this database does not hold yet; audited. */
export async function importOverrides(
  tx: Tx,
  principal: Principal,
  document: ConfigDocument,
  ids: IdMap,
  audit: Audit,
): Promise<string[]> {
  const docs = document.overrides ?? [];
  if (docs.length === 0) return [];
  const now = Date.now();
  const known = new Set(
    (
      await tx.override.findMany({
        where: { id: { in: docs.flatMap((d) => (d.id ? [d.id] : [])) } },
        select: { id: true },
      })
    ).map((row) => row.id),
  );
  const snapshot = compileSnapshot(document, ids, 0);
  const errors: DocumentError[] = [];
  const wanted = docs.flatMap((doc, i) => {
    if ((doc.id !== undefined && known.has(doc.id)) || Date.parse(doc.endsAt) <= now) return [];
    const path = `overrides[${i}]`;
    const problems = problemsOf(doc, path, principal, document, ids, now);
    const tenant = snapshot.tenants[doc.tenant];
    if (problems.length === 0 && tenant) {
      let limits = limitsNamed(tenant, doc.limit, doc.key ?? null);
      if (doc.subject !== undefined) limits = limits.filter((l) => l.by === "subject");
      if (limits.length === 0)
        problems.push({ path: `${path}.limit`, message: `no limit named ${doc.limit} applies there` });
      const imposed = isOperator(principal) ? [] : limits.flatMap((l) => imposedBy(l) ?? []);
      if (imposed.length > 0)
        problems.push({
          path: `${path}.limit`,
          message: `only an operator can override it: imposed by ${imposed[0]}`,
        });
    }
    errors.push(...problems);
    return [{ doc, index: i }];
  });
  if (errors.length === 0) errors.push(...(await capAndOverlapErrors(tx, wanted, ids, now)));
  if (errors.length > 0) throw new ValidationFailed(errors);
  const created: string[] = [];
  for (const { doc } of wanted) {
    const row = await tx.override.create({
      data: {
        ...(doc.id ? { id: doc.id } : {}),
        tenantId: ids.tenants[doc.tenant] as string,
        apiKeyId: doc.key !== undefined ? (ids.keys[doc.tenant]?.[doc.key] ?? null) : null,
        subject: doc.subject ?? null,
        limitName: doc.limit,
        limit: doc.value === "disabled" ? null : doc.value,
        startsAt: new Date(doc.startsAt),
        endsAt: new Date(doc.endsAt),
        reason: doc.reason,
        // who made it is who imports it: a document's createdBy is ignored, never believed
        createdBy: actorLabel(principal),
        createdById: principal.kind === "user" ? principal.id : null,
      },
      select: OVERRIDE_SELECT,
    });
    await audit({
      action: "override.create",
      targetType: "override",
      targetId: row.id,
      tenantId: ids.tenants[doc.tenant] ?? null,
      after: overrideView(row, now),
    });
    created.push(row.id);
  }
  return created;
}
