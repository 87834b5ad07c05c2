import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { runConfigChange } from "@/lib/control/data/config-change";
import { NotFoundError } from "@/lib/control/errors/errors";
import { mayManageToken } from "@/lib/control/data/queries/list-tokens";

// Revoking is permanent; a token someone may not manage is "not found", never "forbidden",
// so ids cannot be probed across tenants.

export async function revokeToken(
  principal: Principal,
  kind: "service" | "admin",
  id: string,
): Promise<void> {
  await runConfigChange(principal, null, async (tx, audit) => {
    const found =
      kind === "service"
        ? await tx.serviceToken.findUnique({
            where: { id },
            include: { tenants: { select: { tenantId: true } } },
          })
        : await tx.adminToken.findUnique({ where: { id } });
    if (!found) throw new NotFoundError("No such token.");
    const tenantIds =
      "tenants" in found ? found.tenants.map((t) => t.tenantId) : found.tenantId ? [found.tenantId] : [];
    if (!mayManageToken(principal, tenantIds)) throw new NotFoundError("No such token.");
    if (found.revokedAt) return;
    const revokedAt = new Date();
    if (kind === "service") await tx.serviceToken.update({ where: { id }, data: { revokedAt } });
    else await tx.adminToken.update({ where: { id }, data: { revokedAt } });
    await audit({
      action: `${kind}-token.revoke`,
      targetType: `${kind}-token`,
      targetId: id,
      tenantId: tenantIds.length === 1 ? tenantIds[0] : null,
      before: { name: found.name, revokedAt: null },
      after: { name: found.name, revokedAt },
    });
  });
}
