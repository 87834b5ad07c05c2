import "server-only";
import { z } from "zod";
import { isOperator, type Principal } from "@/lib/shared/principal";
import { db } from "@/lib/control/data/db";
import { NAME_PATTERN, NAME_RULE, TENANT_STATUSES } from "@/lib/control/config/document";
import { ConflictError, ForbiddenError } from "@/lib/control/errors/errors";
import type { ImportResult } from "@/lib/control/data/import-config";
import { importTenant, readTenantDoc } from "@/lib/control/data/edits/document-edit";
import { safeText } from "@/lib/shared/safe-text";
import { DEFAULT_HEADER_FLAVOUR, HEADER_FLAVOURS } from "@/lib/shared/config-terms";

// Creating a tenant is an operator's act; renaming is the owner's; plan and status are the
// operator's again (importConfig refuses them from members, with a path).

const displayName = safeText(
  z
    .string()
    .trim()
    .min(1, { error: "must not be empty" })
    .max(200, { error: "must be at most 200 characters" }),
);

export const CreateTenantInput = z.strictObject({
  slug: z.string().regex(NAME_PATTERN, { error: NAME_RULE }),
  name: displayName,
  plan: z.string().regex(NAME_PATTERN, { error: "choose a plan" }),
});

export const UpdateTenantInput = z.strictObject({
  slug: z.string().regex(NAME_PATTERN, { error: NAME_RULE }),
  name: displayName,
  plan: z.string().regex(NAME_PATTERN, { error: "choose a plan" }),
  status: z.enum(TENANT_STATUSES, { error: "must be active or suspended" }),
  /** the RateLimit header flavour; left out: kept as it is */
  headers: z.enum(HEADER_FLAVOURS, { error: `must be one of ${HEADER_FLAVOURS.join(", ")}` }).optional(),
});

export async function createTenant(
  principal: Principal,
  input: z.infer<typeof CreateTenantInput>,
): Promise<ImportResult> {
  if (!isOperator(principal)) throw new ForbiddenError("Only an operator can create tenants.");
  const exists = await db().tenant.findUnique({ where: { slug: input.slug }, select: { id: true } });
  if (exists) throw new ConflictError(`A tenant named ${input.slug} already exists.`, "slug");
  return importTenant(principal, {
    slug: input.slug,
    name: input.name,
    plan: input.plan,
    status: "active",
    limits: [],
    routes: [],
    keys: [],
  });
}

export async function updateTenant(
  principal: Principal,
  input: z.infer<typeof UpdateTenantInput>,
): Promise<ImportResult> {
  const current = await readTenantDoc(principal, input.slug, "owner");
  const headers = input.headers ?? current.headers ?? DEFAULT_HEADER_FLAVOUR;
  return importTenant(principal, {
    ...current,
    name: input.name,
    plan: input.plan,
    status: input.status,
    // the default is left out, as a document that never named it reads
    headers: headers === DEFAULT_HEADER_FLAVOUR ? undefined : headers,
  });
}
