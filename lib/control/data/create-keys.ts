import "server-only";
import type { Audit, AuditInput } from "@/lib/control/data/audit";
import { givenOrNewSecret } from "@/lib/shared/secrets";
import { countCaps, type CountCaps } from "@/lib/control/config/import/count-caps";
import { ConflictError, ValidationFailed } from "@/lib/control/errors/errors";
import type { TenantRef } from "@/lib/control/data/tenant-access";
import type { Tx } from "@/lib/control/data/tx";
import type { DocumentError } from "@/lib/control/config/document";
import type { NewKeyInput } from "@/lib/control/keys/key-inputs";

// Several keys of one tenant inside a change already under way (runTenantChange): every
// name and the cap are checked before the first write, so a refusal names the item and
// leaves nothing behind, and a thousand keys cost one insert rather than a thousand.

export interface CreatedKey {
  id: string;
  name: string;
  /** the secret: returned only now, stored only as its hash */
  key: string;
  prefix: string;
}

/**
 * Creates the keys in `tx`, auditing each (key.create). `path` names an item in errors
 * (`keys[3].name`). Refuses the whole list on a name the tenant already has or past the
 * tenant's key cap (revoked keys count, as for one key).
 */
export async function createKeysInChange(
  tx: Tx,
  audit: Audit,
  tenant: TenantRef,
  inputs: readonly NewKeyInput[],
  path: (index: number) => string = (i) => `keys[${i}]`,
  caps: CountCaps = countCaps(),
): Promise<CreatedKey[]> {
  if (inputs.length === 0) return [];
  const names = inputs.map((input) => input.name);
  const clashes = await tx.apiKey.findMany({
    where: { tenantId: tenant.id, name: { in: names } },
    select: { name: true },
  });
  if (clashes.length > 0) {
    const taken = new Set(clashes.map((c) => c.name));
    const errors: DocumentError[] = [];
    inputs.forEach((input, i) => {
      if (taken.has(input.name))
        errors.push({
          path: `${path(i)}.name`,
          message: `tenant ${tenant.slug} already has a key named ${input.name}`,
        });
    });
    const first = errors[0];
    if (errors.length === 1 && first) throw new ConflictError(`${first.message}.`, first.path);
    throw new ValidationFailed(errors);
  }
  const count = await tx.apiKey.count({ where: { tenantId: tenant.id } });
  if (count + inputs.length > caps.keysPerTenant) {
    throw new ConflictError(
      `Tenant ${tenant.slug} has ${count} keys (revoked ones included); ${inputs.length} more would pass the cap of ${caps.keysPerTenant} per tenant (SLUICE_MAX_KEYS_PER_TENANT).`,
      "keys",
    );
  }
  const secrets = inputs.map(() => givenOrNewSecret("sk", undefined));
  const rows = await tx.apiKey.createManyAndReturn({
    data: inputs.map((input, i) => ({
      tenantId: tenant.id,
      name: input.name,
      prefix: secrets[i]?.prefix ?? "",
      hash: secrets[i]?.hash ?? "",
      expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
    })),
    select: { id: true, name: true, prefix: true, expiresAt: true },
  });
  const byName = new Map(rows.map((row) => [row.name, row]));
  const created: CreatedKey[] = [];
  for (const [i, input] of inputs.entries()) {
    const row = byName.get(input.name);
    const secret = secrets[i];
    if (!row || !secret) throw new Error(`key ${input.name} was not created`);
    await audit(keyCreated(row, tenant.id));
    created.push({ id: row.id, name: row.name, key: secret.secret, prefix: row.prefix });
  }
  return created;
}

/** The audit entry of a key made (the keys endpoint, bulk keys and the import write it alike). */
export function keyCreated(
  row: { id: string; name: string; prefix: string; expiresAt: Date | null },
  tenantId: string,
): AuditInput {
  return {
    action: "key.create",
    targetType: "key",
    targetId: row.id,
    tenantId,
    after: { name: row.name, prefix: row.prefix, expiresAt: row.expiresAt },
  };
}
