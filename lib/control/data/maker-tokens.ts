import "server-only";
import type { Audit } from "@/lib/control/data/config-change";
import type { Tx } from "@/lib/control/data/tx";

// A member removed from a tenant takes the admin tokens they made for it with them, for
// good: revoked in the same transaction, so re-adding the member does not revive them.

export async function revokeMakerTokens(
  tx: Tx,
  audit: Audit,
  tenantId: string,
  userId: string,
  reason: string,
): Promise<void> {
  const tokens = await tx.adminToken.findMany({
    where: { tenantId, userId, revokedAt: null },
    select: { id: true, name: true },
  });
  if (tokens.length === 0) return;
  const revokedAt = new Date();
  await tx.adminToken.updateMany({
    where: { id: { in: tokens.map((t) => t.id) } },
    data: { revokedAt, revokedReason: reason },
  });
  for (const token of tokens) {
    await audit({
      action: "admin-token.revoke",
      targetType: "admin-token",
      targetId: token.id,
      tenantId,
      before: { name: token.name, revokedAt: null },
      after: { name: token.name, revokedAt, reason },
    });
  }
}
