import "server-only";
import { Prisma } from "@/lib/generated/prisma/client";

// Names for audit targets recorded by internal id (keys, tokens, members, invitations,
// overrides, alert rules and endpoints) and the entry's tenant slug, joined into the query
// that reads the page, so the log reads "key backend" rather than "key cmwulv1vj..." at no
// extra round trip. An object deleted since has no row to join: it keeps its id.

/** The joins: each only matches entries of its target type. `a` is the audit entry. */
export const TARGET_JOINS = Prisma.sql`
  left join "Tenant" tenant on tenant.id = a."tenantId"
  left join "ApiKey" k on a."targetType" = 'key' and k.id = a."targetId"
  left join "ServiceToken" st on a."targetType" = 'service-token' and st.id = a."targetId"
  left join "AdminToken" adt on a."targetType" = 'admin-token' and adt.id = a."targetId"
  left join "User" u on a."targetType" in ('member', 'user') and u.id = a."targetId"
  left join "Invitation" inv on a."targetType" = 'invitation' and inv.id = a."targetId"
  left join "AlertRule" ar on a."targetType" = 'alert-rule' and ar.id = a."targetId"
  left join "AlertEndpoint" ae on a."targetType" = 'alert-endpoint' and ae.id = a."targetId"
  left join "Override" o on a."targetType" = 'override' and o.id = a."targetId"
  left join "ApiKey" ok on ok.id = o."apiKeyId"
  left join "Tenant" tt on a."targetType" = 'tenant' and tt.id = a."targetId"`;

/** The target's name ("backend", "cap for key backend"), null when none is known. */
export const TARGET_NAME = Prisma.sql`coalesce(
  k.name, st.name, adt.name, u.email, inv.email, ar.name, ae.name, tt.slug,
  o."limitName" || coalesce(' for key ' || ok.name, ' for subject ' || o.subject, ''))`;

export interface TargetParts {
  action: string;
  targetType: string;
  targetId: string | null;
  targetName: string | null;
  before: unknown;
  after: unknown;
}

function limitNameOf(state: unknown): string | null {
  if (state === null || typeof state !== "object") return null;
  const limit = (state as { limit?: unknown }).limit;
  if (limit === null || typeof limit !== "object") return null;
  const name = (limit as { name?: unknown }).name;
  return typeof name === "string" ? name : null;
}

/** "key backend", "limit cap of key backend", "override cap for key backend", else type and id. */
export function targetText(e: TargetParts): string {
  const object = e.targetName ?? e.targetId;
  const base = object ? `${e.targetType} ${object}` : e.targetType;
  // a limit set on a key or tenant (bulk edits): the limit's name leads
  const limit = e.action.startsWith("limit.") ? (limitNameOf(e.after) ?? limitNameOf(e.before)) : null;
  return limit ? `limit ${limit} of ${base}` : base;
}
