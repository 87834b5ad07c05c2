import "server-only";
import type { LimitDoc } from "@/lib/control/config/document";
import { limitToRow } from "@/lib/control/data/limit-rows";
import type { Tx } from "@/lib/control/data/tx";
import type { LimitTarget } from "@/lib/control/bulk/limit-targets";

// Writes one target's limit row: the row of that name replaced in place (its position
// kept, so the limit keeps its place in exports), or a new row after the target's others.

export async function writeLimit(tx: Tx, target: LimitTarget, limit: LimitDoc): Promise<void> {
  const attachment = target.key ? { apiKeyId: target.key.id } : { tenantId: target.tenantId };
  const existing = await tx.limit.findFirst({
    where: { ...attachment, name: limit.name },
    select: { id: true },
  });
  if (existing) {
    const { position: _kept, ...fields } = limitToRow(limit, 0);
    await tx.limit.update({ where: { id: existing.id }, data: fields });
    return;
  }
  const last = await tx.limit.aggregate({ where: attachment, _max: { position: true } });
  await tx.limit.create({ data: { ...attachment, ...limitToRow(limit, (last._max.position ?? -1) + 1) } });
}
