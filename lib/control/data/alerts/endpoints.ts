import "server-only";
import { randomBytes } from "node:crypto";
import { hasRole, isOperator, type Principal } from "@/lib/shared/principal";
import { maskedUrl } from "@/lib/control/alerts/guard/redaction";
import { literalPrivateHost } from "@/lib/control/alerts/guard/url-guard";
import { runTenantChange } from "@/lib/control/data/config-change";
import { db } from "@/lib/control/data/db";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/control/errors/errors";
import { tenantFor } from "@/lib/control/data/tenant-access";
import { CreateEndpointInput } from "@/lib/control/alerts/input/inputs";

// Webhook endpoints of a tenant (admins and above): created with a signing secret shown
// once, disabled (never deleted, so the delivery log keeps its target). Audited changes.

/** Endpoints in use (not disabled): the cap a tenant meets in practice. */
export const MAX_ENDPOINTS_PER_TENANT = 20;
/** All endpoints, disabled ones included: they are kept for the delivery log, so bounded too. */
export const MAX_ENDPOINTS_KEPT_PER_TENANT = 100;

export interface EndpointView {
  id: string;
  name: string;
  url: string;
  format: string;
  secretPrefix: string;
  allowPrivate: boolean;
  createdAt: Date;
  disabledAt: Date | null;
}

const VIEW = {
  id: true,
  name: true,
  url: true,
  format: true,
  secretPrefix: true,
  allowPrivate: true,
  createdAt: true,
  disabledAt: true,
} as const;

export async function createAlertEndpoint(
  principal: Principal,
  slug: string,
  raw: CreateEndpointInput,
  requestId: string | null = null,
): Promise<{ endpoint: EndpointView; secret: string }> {
  const input = CreateEndpointInput.parse(raw);
  const secret = `whsec_${randomBytes(24).toString("base64url")}`;
  const { result } = await runTenantChange(slug, principal, requestId, async (tx, audit) => {
    const tenant = await tenantFor(tx, principal, slug, "admin");
    // Reaching private networks is the operator's call, never a tenant's.
    if (input.allowPrivate && !isOperator(principal))
      throw new ForbiddenError("Only an operator can let an endpoint reach private networks.");
    // The refusal names the way out: the "Allow private networks" choice (allowPrivate),
    // right below the URL in the dashboard, or who may set it.
    if (!input.allowPrivate && literalPrivateHost(input.url))
      throw new ConflictError(
        isOperator(principal)
          ? 'url: a private, loopback or link-local host is not allowed unless "Allow private networks" (allowPrivate) is yes'
          : 'url: a private, loopback or link-local host is not allowed; only an operator can set "Allow private networks" (allowPrivate) for an endpoint',
        "url",
      );
    // Disabling one frees its place: only enabled endpoints count toward the cap.
    const enabled = await tx.alertEndpoint.count({ where: { tenantId: tenant.id, disabledAt: null } });
    if (enabled >= MAX_ENDPOINTS_PER_TENANT)
      throw new ConflictError(
        `A tenant has at most ${MAX_ENDPOINTS_PER_TENANT} enabled alert endpoints; disable one first.`,
      );
    if ((await tx.alertEndpoint.count({ where: { tenantId: tenant.id } })) >= MAX_ENDPOINTS_KEPT_PER_TENANT)
      throw new ConflictError(
        `A tenant has at most ${MAX_ENDPOINTS_KEPT_PER_TENANT} alert endpoints, disabled ones included.`,
      );
    if (
      await tx.alertEndpoint.findUnique({
        where: { tenantId_name: { tenantId: tenant.id, name: input.name } },
      })
    )
      throw new ConflictError(`name: an endpoint named ${input.name} already exists`, "name");
    const row = await tx.alertEndpoint.create({
      data: { tenantId: tenant.id, ...input, secret, secretPrefix: secret.slice(0, 12) },
      select: VIEW,
    });
    const { id: _id, createdAt: _c, disabledAt: _d, ...after } = row;
    await audit({
      action: "alert-endpoint.create",
      targetType: "alert-endpoint",
      targetId: row.id,
      tenantId: tenant.id,
      after,
    });
    return row;
  });
  return { endpoint: result, secret };
}

/** Below admin, each URL shows its scheme and host only: the rest can be the hook's secret. */
export async function listAlertEndpoints(principal: Principal, slug: string): Promise<EndpointView[]> {
  const tenant = await tenantFor(db(), principal, slug, "viewer");
  const rows = await db().alertEndpoint.findMany({
    where: { tenantId: tenant.id },
    select: VIEW,
    orderBy: { name: "asc" },
  });
  return hasRole(principal, tenant.id, "admin") ? rows : rows.map((e) => ({ ...e, url: maskedUrl(e.url) }));
}

export async function disableAlertEndpoint(
  principal: Principal,
  slug: string,
  name: string,
  requestId: string | null = null,
): Promise<void> {
  await runTenantChange(slug, principal, requestId, async (tx, audit) => {
    const tenant = await tenantFor(tx, principal, slug, "admin");
    const row = await tx.alertEndpoint.findUnique({
      where: { tenantId_name: { tenantId: tenant.id, name } },
    });
    if (!row) throw new NotFoundError(`No alert endpoint named ${name}.`);
    if (row.disabledAt) return;
    await tx.alertEndpoint.update({ where: { id: row.id }, data: { disabledAt: new Date() } });
    await audit({
      action: "alert-endpoint.disable",
      targetType: "alert-endpoint",
      targetId: row.id,
      tenantId: tenant.id,
      before: { name, url: row.url },
    });
  });
}
