import type { Metadata } from "next";
import { loadTenantTool, type TenantToolProps } from "@/app/(dashboard)/_lib/tenant-tool-page";
import { HistoryQuery, listHistory } from "@/lib/control/data/config-history";
import { HistoryView } from "@/components/ops/history-view";
import { rollbackAction } from "@/app/(dashboard)/_actions/ops-actions";
import { revertChangeAction, rollbackPreviewAction } from "@/app/(dashboard)/_actions/revert-actions";
import { orNotFound } from "@/app/(dashboard)/_lib/load";
import { changesAsYaml } from "@/app/(dashboard)/_lib/history-changes";

export const metadata: Metadata = { title: "Configuration history" };

export default async function TenantHistoryPage(props: TenantToolProps) {
  const { user, tenant, search } = await loadTenantTool(props);
  const before = search.before;
  const query = HistoryQuery.safeParse({
    tenant: tenant.slug,
    before: typeof before === "string" ? before : undefined,
  });
  const page = await orNotFound(
    listHistory(user, query.success ? query.data : { tenant: tenant.slug, limit: 20 }),
  );
  const newest =
    query.success && query.data.before !== undefined ? null : (page.versions[0]?.version ?? null);
  return (
    <div className="panel">
      <h2>Configuration history</h2>
      <p className="muted">
        Every version that changed {tenant.name}: who, when and what. Rolling back makes a new version,
        checked like any import; it also ends overrides and disables alert rules made since, and shows what it
        will do before it does it. &quot;Revert this change&quot; undoes one change only.
      </p>
      <HistoryView
        page={page}
        changes={changesAsYaml(page)}
        tenant={tenant.slug}
        actions={{
          rollback: tenant.can.edit ? rollbackAction : null,
          preview: rollbackPreviewAction,
          revert: tenant.can.edit ? revertChangeAction : null,
        }}
        olderHref={
          page.nextBefore === null ? null : `/tenants/${tenant.slug}/history?before=${page.nextBefore}`
        }
        newestVersion={newest}
        zone={user.timeZone ?? "UTC"}
      />
    </div>
  );
}
