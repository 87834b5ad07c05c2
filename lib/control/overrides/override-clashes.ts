import "server-only";
import type { IdMap } from "@/lib/control/config/compile";
import { formatDate } from "@/lib/shared/format-date";
import type { DocumentError, OverrideDoc } from "@/lib/control/config/document";
import { MAX_OVERRIDES_PER_TENANT } from "@/lib/control/overrides/override-input";

// The rules POST /api/admin/overrides applies, applied to an import too: at most
// MAX_OVERRIDES_PER_TENANT in force or waiting per tenant, and no two overrides of the same
// limit and target at once. Checked against the overrides already held (read by
// lib/control/data/override-import-rules.ts) and those listed before in the same document.

/** An override in force or waiting, in milliseconds. */
export interface HeldOverride {
  tenantId: string;
  apiKeyId: string | null;
  subject: string | null;
  limitName: string;
  startsAt: number;
  endsAt: number;
}

export interface WantedOverride {
  doc: OverrideDoc;
  /** its index in the document's overrides */
  index: number;
}

function asHeld(doc: OverrideDoc, ids: IdMap): HeldOverride {
  return {
    tenantId: ids.tenants[doc.tenant] ?? "",
    apiKeyId: doc.key !== undefined ? (ids.keys[doc.tenant]?.[doc.key] ?? null) : null,
    subject: doc.subject ?? null,
    limitName: doc.limit,
    startsAt: Date.parse(doc.startsAt),
    endsAt: Date.parse(doc.endsAt),
  };
}

const clashes = (a: HeldOverride, b: HeldOverride): boolean =>
  a.tenantId === b.tenantId &&
  a.limitName === b.limitName &&
  a.apiKeyId === b.apiKeyId &&
  a.subject === b.subject &&
  a.startsAt < b.endsAt &&
  a.endsAt > b.startsAt;

/** The tenants the wanted overrides belong to, whose held overrides the rule needs. */
export function wantedTenantIds(wanted: readonly WantedOverride[], ids: IdMap): string[] {
  return [...new Set(wanted.map((w) => ids.tenants[w.doc.tenant] ?? ""))];
}

/** The cap and overlap errors of the wanted overrides, by their paths. */
export function clashErrors(
  wanted: readonly WantedOverride[],
  ids: IdMap,
  alreadyHeld: readonly HeldOverride[],
): DocumentError[] {
  const held = [...alreadyHeld];
  const errors: DocumentError[] = [];
  const full = new Set<string>();
  for (const { doc, index } of wanted) {
    const path = `overrides[${index}]`;
    const next = asHeld(doc, ids);
    if (held.filter((o) => o.tenantId === next.tenantId).length >= MAX_OVERRIDES_PER_TENANT) {
      // once per tenant: a document of thousands would otherwise answer thousands of errors
      if (full.has(next.tenantId)) continue;
      full.add(next.tenantId);
      errors.push({
        path: `${path}.tenant`,
        message: `tenant ${doc.tenant} would have more than ${MAX_OVERRIDES_PER_TENANT} overrides in force or waiting`,
      });
      continue;
    }
    const clash = held.find((o) => clashes(o, next));
    if (clash) {
      errors.push({
        path: `${path}.startsAt`,
        message: `an override of ${doc.limit} for the same target already runs ${formatDate(clash.startsAt)} to ${formatDate(clash.endsAt)}`,
      });
      continue;
    }
    held.push(next);
  }
  return errors;
}
