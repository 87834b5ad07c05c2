import "server-only";
import type { IdMap } from "@/lib/control/config/compile";
import type { DocumentError, OverrideDoc } from "@/lib/control/config/document";
import { MAX_OVERRIDES_PER_TENANT } from "@/lib/control/data/override-input";
import type { Tx } from "@/lib/control/data/tx";

// The rules POST /api/admin/overrides applies, applied to an import too: at most
// MAX_OVERRIDES_PER_TENANT in force or waiting per tenant, and no two overrides of the same
// limit and target at once. Checked against the overrides already held and those listed
// before in the same document.

interface Held {
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

function asHeld(doc: OverrideDoc, ids: IdMap): Held {
  return {
    tenantId: ids.tenants[doc.tenant] ?? "",
    apiKeyId: doc.key !== undefined ? (ids.keys[doc.tenant]?.[doc.key] ?? null) : null,
    subject: doc.subject ?? null,
    limitName: doc.limit,
    startsAt: Date.parse(doc.startsAt),
    endsAt: Date.parse(doc.endsAt),
  };
}

async function liveOverrides(tx: Tx, tenantIds: string[], now: number): Promise<Held[]> {
  const rows = await tx.override.findMany({
    where: { tenantId: { in: tenantIds }, endsAt: { gt: new Date(now) } },
    select: {
      tenantId: true,
      apiKeyId: true,
      subject: true,
      limitName: true,
      startsAt: true,
      endsAt: true,
      endedAt: true,
    },
  });
  return rows
    .filter((o) => o.endedAt === null || o.endedAt.getTime() > now)
    .map((o) => ({
      tenantId: o.tenantId,
      apiKeyId: o.apiKeyId,
      subject: o.subject,
      limitName: o.limitName,
      startsAt: o.startsAt.getTime(),
      endsAt: (o.endedAt ?? o.endsAt).getTime(),
    }));
}

const clashes = (a: Held, b: Held): boolean =>
  a.tenantId === b.tenantId &&
  a.limitName === b.limitName &&
  a.apiKeyId === b.apiKeyId &&
  a.subject === b.subject &&
  a.startsAt < b.endsAt &&
  a.endsAt > b.startsAt;

/** The cap and overlap errors of the overrides an import would create, by their paths. */
export async function capAndOverlapErrors(
  tx: Tx,
  wanted: WantedOverride[],
  ids: IdMap,
  now: number,
): Promise<DocumentError[]> {
  if (wanted.length === 0) return [];
  const tenantIds = [...new Set(wanted.map((w) => ids.tenants[w.doc.tenant] ?? ""))];
  const held = await liveOverrides(tx, tenantIds, now);
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
        message: `an override of ${doc.limit} for the same target already runs ${new Date(clash.startsAt).toISOString()} to ${new Date(clash.endsAt).toISOString()}`,
      });
      continue;
    }
    held.push(next);
  }
  return errors;
}
