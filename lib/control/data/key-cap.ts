import "server-only";
import { countCaps, type CountCaps } from "@/lib/control/config/import/count-caps";
import { ConflictError } from "@/lib/control/errors/errors";
import type { TenantRef } from "@/lib/control/data/tenant-access";
import type { Tx } from "@/lib/control/data/tx";

/**
 * Refuses a new key past the cap. Revoked keys count: they stay in the published snapshot
 * so checks with them answer revoked_key. Runs inside runConfigChange, whose lock
 * serializes key creation, so two concurrent creations cannot both take the last place.
 */
export async function assertKeyCap(tx: Tx, tenant: TenantRef, caps: CountCaps = countCaps()): Promise<void> {
  const count = await tx.apiKey.count({ where: { tenantId: tenant.id } });
  if (count >= caps.keysPerTenant) {
    throw new ConflictError(
      `Tenant ${tenant.slug} already has ${count} keys (revoked ones included); at most ${caps.keysPerTenant} per tenant (SLUICE_MAX_KEYS_PER_TENANT).`,
      "name",
    );
  }
}
