import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { db } from "@/lib/control/data/db";
import { usageTenant } from "@/lib/control/data/usage/scope";

/**
 * The earliest moment usage can exist for the view (ms), or null if unknown: when the
 * installation began (its first configuration version) and, for one tenant, when the
 * tenant was created, whichever is later. Before it a chart's zeros are not quiet traffic
 * but no data at all. Two reads by primary key and unique slug.
 */
export async function usageDataStart(principal: Principal, tenantSlug?: string): Promise<number | null> {
  const first = await db().configVersion.findFirst({
    orderBy: { version: "asc" },
    select: { createdAt: true },
  });
  const installed = first?.createdAt.getTime() ?? null;
  if (tenantSlug === undefined) return installed;
  const ref = await usageTenant(principal, tenantSlug);
  const tenant = await db().tenant.findUnique({ where: { id: ref.id }, select: { createdAt: true } });
  const created = tenant?.createdAt.getTime() ?? null;
  if (installed === null) return created;
  return created === null ? installed : Math.max(installed, created);
}
