import "server-only";
import { z } from "zod";
import { actingUserId, actorIdOf, hasRole, isOperator, type Principal } from "@/lib/shared/principal";
import { givenOrNewSecret, newSecret } from "@/lib/shared/secrets";
import { NAME_PATTERN } from "@/lib/control/config/document";
import { runConfigChange } from "@/lib/control/data/config-change";
import { ForbiddenError } from "@/lib/control/errors/errors";
import { tenantFor } from "@/lib/control/data/tenant-access";
import { safeText } from "@/lib/shared/safe-text";

const tokenName = safeText(
  z
    .string()
    .trim()
    .min(1, { error: "must not be empty" })
    .max(100, { error: "must be at most 100 characters" }),
);

export const CreateServiceTokenInput = z.strictObject({
  name: tokenName,
  tenants: z
    .array(z.string().regex(NAME_PATTERN, { error: "must be a tenant slug" }))
    .min(1)
    .optional(),
});
export type CreateServiceTokenInput = z.infer<typeof CreateServiceTokenInput>;

export const CreateAdminTokenInput = z.strictObject({
  name: tokenName,
  role: z.enum(["owner", "admin", "editor", "viewer"], { error: "must be owner, admin, editor or viewer" }),
  tenant: z.string().regex(NAME_PATTERN, { error: "must be a tenant slug" }).optional(),
});
export type CreateAdminTokenInput = z.infer<typeof CreateAdminTokenInput>;

export interface CreatedToken {
  id: string;
  /** returned only now */
  token: string;
}

/** Operators may make unrestricted tokens; tenant admins only tokens limited to their tenants. */
export async function createServiceToken(
  principal: Principal,
  input: CreateServiceTokenInput,
  options: { requestId?: string | null; presetSecret?: string } = {},
): Promise<CreatedToken> {
  const secret = givenOrNewSecret("st", options.presetSecret);
  const { result } = await runConfigChange(principal, options.requestId ?? null, async (tx, audit) => {
    if (!input.tenants && !isOperator(principal)) {
      throw new ForbiddenError(
        "Only an operator can make a service token for every tenant; list your tenants.",
      );
    }
    const tenants = [];
    for (const slug of input.tenants ?? []) tenants.push(await tenantFor(tx, principal, slug, "admin"));
    const row = await tx.serviceToken.create({
      data: {
        name: input.name,
        prefix: secret.prefix,
        hash: secret.hash,
        createdBy: actorIdOf(principal),
        tenants: { create: tenants.map((t) => ({ tenantId: t.id })) },
      },
    });
    const after = { name: row.name, prefix: row.prefix, tenants: input.tenants ?? "all" };
    await audit({
      action: "service-token.create",
      targetType: "service-token",
      targetId: row.id,
      tenantId: tenants.length === 1 ? tenants[0]?.id : null,
      after,
    });
    return row;
  });
  return { id: result.id, token: secret.secret };
}

export async function createAdminToken(
  principal: Principal,
  input: CreateAdminTokenInput,
  requestId: string | null = null,
): Promise<CreatedToken> {
  const secret = newSecret("at");
  if (!input.tenant && !isOperator(principal))
    throw new ForbiddenError("Only an operator can make an operator token.");
  const { result } = await runConfigChange(principal, requestId, async (tx, audit) => {
    const tenant = input.tenant ? await tenantFor(tx, principal, input.tenant, "admin") : null;
    // Nobody hands out more than they hold: an admin cannot mint an owner token.
    if (tenant && !hasRole(principal, tenant.id, input.role)) {
      throw new ForbiddenError(
        `Your role in ${input.tenant} cannot create a token with the ${input.role} role.`,
      );
    }
    const row = await tx.adminToken.create({
      data: {
        name: input.name,
        prefix: secret.prefix,
        hash: secret.hash,
        tenantId: tenant?.id ?? null,
        role: tenant ? input.role : null,
        createdBy: actorIdOf(principal),
        userId: actingUserId(principal),
      },
    });
    await audit({
      action: "admin-token.create",
      targetType: "admin-token",
      targetId: row.id,
      tenantId: tenant?.id ?? null,
      after: {
        name: row.name,
        prefix: row.prefix,
        tenant: input.tenant ?? null,
        role: row.role ?? "operator",
      },
    });
    return row;
  });
  return { id: result.id, token: secret.secret };
}
