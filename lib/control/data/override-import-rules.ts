import "server-only";
import type { IdMap } from "@/lib/control/config/compile";
import type { DocumentError } from "@/lib/control/config/document";
import {
  clashErrors,
  wantedTenantIds,
  type HeldOverride,
  type WantedOverride,
} from "@/lib/control/overrides/override-clashes";
import type { Tx } from "@/lib/control/data/tx";

// The overrides an import's new ones are checked against (lib/control/overrides/override-clashes.ts):
// those of the same tenants still in force or waiting.

async function liveOverrides(tx: Tx, tenantIds: string[], now: number): Promise<HeldOverride[]> {
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

/** The cap and overlap errors of the overrides an import would create, by their paths. */
export async function capAndOverlapErrors(
  tx: Tx,
  wanted: WantedOverride[],
  ids: IdMap,
  now: number,
): Promise<DocumentError[]> {
  if (wanted.length === 0) return [];
  const held = await liveOverrides(tx, wantedTenantIds(wanted, ids), now);
  return clashErrors(wanted, ids, held);
}
