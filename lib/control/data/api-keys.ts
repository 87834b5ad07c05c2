import "server-only";
import { keyCreated, type CreatedKey } from "@/lib/control/data/create-keys";
import type { Principal } from "@/lib/shared/principal";
import { db } from "@/lib/control/data/db";
import { givenOrNewSecret } from "@/lib/shared/secrets";
import { runTenantChange } from "@/lib/control/data/config-change";
import { assertKeyCap } from "@/lib/control/data/key-cap";
import { createKeysInChange } from "@/lib/control/data/create-keys";
import { ConflictError, NotFoundError } from "@/lib/control/errors/errors";
import { tenantFor } from "@/lib/control/data/tenant-access";
import { CreateKeyInput } from "@/lib/control/keys/key-inputs";

type Tx = Parameters<Parameters<typeof runTenantChange>[3]>[0];
type Audit = Parameters<Parameters<typeof runTenantChange>[3]>[1];
type Secret = ReturnType<typeof givenOrNewSecret>;

/** One key in a change under way: refused on a name clash or past the tenant's cap. */
async function addKey(
  tx: Tx,
  audit: Audit,
  tenant: Awaited<ReturnType<typeof tenantFor>>,
  tenantSlug: string,
  input: CreateKeyInput,
  secret: Secret,
): Promise<CreatedKey> {
  const clash = await tx.apiKey.findUnique({
    where: { tenantId_name: { tenantId: tenant.id, name: input.name } },
  });
  if (clash) throw new ConflictError(`Tenant ${tenantSlug} already has a key named ${input.name}.`, "name");
  await assertKeyCap(tx, tenant);
  const row = await tx.apiKey.create({
    data: {
      tenantId: tenant.id,
      name: input.name,
      prefix: secret.prefix,
      hash: secret.hash,
      expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
    },
  });
  await audit(keyCreated(row, tenant.id));
  return { id: row.id, name: row.name, key: secret.secret, prefix: row.prefix };
}

/** Editors and above. `presetSecret` is for the demo seed only (stable printed secrets). */
export async function createApiKey(
  principal: Principal,
  tenantSlug: string,
  input: CreateKeyInput,
  options: { requestId?: string | null; presetSecret?: string } = {},
): Promise<CreatedKey> {
  const secret = givenOrNewSecret("sk", options.presetSecret);
  const { result } = await runTenantChange(
    tenantSlug,
    principal,
    options.requestId ?? null,
    async (tx, audit) => {
      const tenant = await tenantFor(tx, principal, tenantSlug, "editor");
      return addKey(tx, audit, tenant, tenantSlug, input, secret);
    },
  );
  return result;
}

/** Several keys in one change, so one new config version: all are made or none. */
export async function createApiKeys(
  principal: Principal,
  tenantSlug: string,
  inputs: readonly CreateKeyInput[],
  requestId: string | null = null,
): Promise<CreatedKey[]> {
  const { result } = await runTenantChange(tenantSlug, principal, requestId, async (tx, audit) => {
    const tenant = await tenantFor(tx, principal, tenantSlug, "editor");
    return createKeysInChange(tx, audit, tenant, inputs);
  });
  return result;
}

export async function revokeApiKey(
  principal: Principal,
  tenantSlug: string,
  name: string,
  requestId: string | null = null,
): Promise<void> {
  await runTenantChange(tenantSlug, principal, requestId, async (tx, audit) => {
    const tenant = await tenantFor(tx, principal, tenantSlug, "editor");
    const key = await tx.apiKey.findUnique({ where: { tenantId_name: { tenantId: tenant.id, name } } });
    if (!key) throw new NotFoundError(`Tenant ${tenantSlug} has no key named ${name}.`);
    if (key.revokedAt) return; // already revoked: nothing changes, nothing is audited
    const revokedAt = new Date();
    await tx.apiKey.update({ where: { id: key.id }, data: { revokedAt } });
    await audit({
      action: "key.revoke",
      targetType: "key",
      targetId: key.id,
      tenantId: tenant.id,
      before: { revokedAt: null },
      after: { revokedAt },
    });
  });
}

export interface KeySummary {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  /** the secret before the last rotation (docs/api.md#key-rotation): its prefix, and when it stops (or stopped) working */
  previousPrefix: string | null;
  previousUntil: Date | null;
}

export async function listApiKeys(principal: Principal, tenantSlug: string): Promise<KeySummary[]> {
  return db().$transaction(async (tx) => {
    const tenant = await tenantFor(tx, principal, tenantSlug, "viewer");
    return tx.apiKey.findMany({
      where: { tenantId: tenant.id },
      select: {
        id: true,
        name: true,
        prefix: true,
        createdAt: true,
        expiresAt: true,
        revokedAt: true,
        lastUsedAt: true,
        previousPrefix: true,
        previousUntil: true,
      },
      orderBy: { createdAt: "asc" },
    });
  });
}
