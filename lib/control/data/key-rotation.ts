import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { newSecret } from "@/lib/shared/secrets";
import { runTenantChange } from "@/lib/control/data/config-change";
import { ConflictError, NotFoundError } from "@/lib/control/errors/errors";
import { tenantFor } from "@/lib/control/data/tenant-access";
import type { RotateKeyInput } from "@/lib/control/keys/key-inputs";

// Rotating an API key (Unkey's "reroll"): a new secret for the same key (same id, so the same
// counters and limits), while the old one keeps authenticating as it until the grace period
// ends; then it answers revoked_key. A key keeps one previous secret: rotating again ends the
// earlier one's grace at once (it then answers unknown_key). docs/api.md#key-rotation.

export interface RotatedKey {
  id: string;
  name: string;
  /** the new secret: shown only now */
  key: string;
  prefix: string;
  previousPrefix: string;
  /** when the old secret stops working (ISO 8601) */
  previousUntil: string;
}

/** Editors and above; another tenant's key is "not found"; a revoked key cannot be rotated. */
export async function rotateApiKey(
  principal: Principal,
  tenantSlug: string,
  name: string,
  input: RotateKeyInput,
  requestId: string | null = null,
): Promise<RotatedKey> {
  const secret = newSecret("sk");
  const { result } = await runTenantChange(tenantSlug, principal, requestId, async (tx, audit) => {
    const tenant = await tenantFor(tx, principal, tenantSlug, "editor");
    const key = await tx.apiKey.findUnique({ where: { tenantId_name: { tenantId: tenant.id, name } } });
    if (!key) throw new NotFoundError(`Tenant ${tenantSlug} has no key named ${name}.`);
    if (key.revokedAt)
      throw new ConflictError(`Key ${name} is revoked; create a new key instead of rotating it.`, "name");
    const previousUntil = new Date(Date.now() + input.graceSeconds * 1000);
    await tx.apiKey.update({
      where: { id: key.id },
      data: {
        hash: secret.hash,
        prefix: secret.prefix,
        previousHash: key.hash,
        previousPrefix: key.prefix,
        previousUntil,
      },
    });
    await audit({
      action: "key.rotate",
      targetType: "key",
      targetId: key.id,
      tenantId: tenant.id,
      before: { prefix: key.prefix },
      after: { prefix: secret.prefix, previousPrefix: key.prefix, previousUntil },
    });
    return {
      id: key.id,
      name: key.name,
      key: secret.secret,
      prefix: secret.prefix,
      previousPrefix: key.prefix,
      previousUntil: previousUntil.toISOString(),
    };
  });
  return result;
}
