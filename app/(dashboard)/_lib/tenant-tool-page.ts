import "server-only";
import { requireUser } from "@/lib/control/auth/session";
import { tenantDetail } from "@/lib/control/data/queries/tenant-detail";
import { orNotFound } from "@/app/(dashboard)/_lib/load";
import type { SearchParams } from "@/app/(dashboard)/_lib/check-params";

// What every tool tab of a tenant (simulator, lookup, history) starts with: the signed-in
// user, the tenant as the DAL lets them see it (404 otherwise) and the query string.

export interface TenantToolProps {
  params: Promise<{ slug: string }>;
  searchParams: Promise<SearchParams>;
}

export async function loadTenantTool(props: TenantToolProps) {
  const { slug } = await props.params;
  const user = await requireUser();
  const tenant = await orNotFound(tenantDetail(user, slug));
  return { user, tenant, search: await props.searchParams };
}
