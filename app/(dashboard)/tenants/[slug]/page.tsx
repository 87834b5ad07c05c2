import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/control/auth/session";
import { tenantDetail } from "@/lib/control/data/queries/tenant-detail";
import { limitHierarchy, type HierarchyRow } from "@/lib/control/limit-tree/limit-hierarchy";
import { LimitHierarchyView } from "@/components/limits/limit-hierarchy-view";
import { editorHref } from "@/components/limits/editor-href";
import { orNotFound } from "@/app/(dashboard)/_lib/load";
import { deleteLimitAction } from "@/app/(dashboard)/_actions/limit-actions";
import { RouteFilter } from "@/components/limits/route-filter";
import { RouteGroup } from "@/components/limits/route-group";
import { SavedNotice } from "@/components/limits/saved-notice";
import { undoSaveAction } from "@/app/(dashboard)/_actions/revert-actions";
import { RedisMemory } from "@/components/tenants/redis-memory";
import { LimitTreePanel } from "@/components/limit-tree/limit-tree-panel";
import { usageSettings } from "@/lib/usage/settings";
import { tenantMemoryOf } from "@/lib/usage/record/tenant-memory";
import { LiveUtilizationProvider, LiveUtilizationStatus } from "@/components/limits/live-utilization";
import { liveUtilization } from "@/lib/control/counters/live-utilization";
import { OverridesPanel } from "@/components/overrides/overrides-panel";
import { createOverrideAction, endOverrideAction } from "@/app/(dashboard)/_actions/override-actions";

export const metadata: Metadata = { title: "Tenant limits" };

function byRoute(rows: HierarchyRow[]): [string | null, HierarchyRow[]][] {
  const groups = new Map<string | null, HierarchyRow[]>();
  for (const row of rows) groups.set(row.route, [...(groups.get(row.route) ?? []), row]);
  return [...groups].sort(([a], [b]) => (a === null ? -1 : b === null ? 1 : a.localeCompare(b)));
}

export default async function TenantLimitsPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requireUser();
  const tenant = await orNotFound(tenantDetail(user, slug));
  const hierarchy = limitHierarchy(tenant);
  const keysWithout = tenant.keyNames.filter((k) => !hierarchy.keys.some((g) => g.key === k));
  const memory = await tenantMemoryOf(tenant.id, usageSettings().ns);
  const live = await liveUtilization(user, tenant.slug);
  return (
    <LiveUtilizationProvider slug={tenant.slug} initial={live}>
      <SavedNotice undo={undoSaveAction} />
      <div className="panel" id="effective-limits">
        <div className="panel-head">
          <h2>Effective limits</h2>
          {tenant.can.edit && (
            <Link className="button" href={editorHref(tenant.slug, { kind: "tenant" }, null)}>
              Add a tenant limit
            </Link>
          )}
        </div>
        <p className="muted">
          What every check of this tenant meets: plan <strong>{tenant.plan}</strong> limits and global route
          limits, with this tenant&apos;s overrides on top. Each row shows where its values come from, and how
          much of it is used now.
        </p>
        <LiveUtilizationStatus />
        {byRoute(hierarchy.tenant).length > 6 && <RouteFilter scope="effective-limits" />}
        {byRoute(hierarchy.tenant).map(([route, rows]) => {
          const view = (
            <LimitHierarchyView
              slug={tenant.slug}
              rows={rows}
              can={tenant.can}
              here={
                route !== null && tenant.doc.routes.some((r) => r.pattern === route)
                  ? { kind: "tenant-route", pattern: route }
                  : { kind: "tenant" }
              }
              empty="No limits."
              deleteAction={deleteLimitAction}
              owner="tenant"
            />
          );
          return route === null ? (
            <div key="all" className="group">
              <h3>Every check</h3>
              {view}
            </div>
          ) : (
            <RouteGroup
              key={route}
              route={route}
              count={rows.length}
              open={rows.some((r) => r.state !== "inherited")}
            >
              {view}
            </RouteGroup>
          );
        })}
        {hierarchy.tenant.length === 0 && (
          <p className="empty">No limits apply yet. Add a tenant limit, or give the plan some.</p>
        )}
      </div>
      <OverridesPanel
        principal={user}
        slug={tenant.slug}
        keyNames={tenant.keyNames}
        canEdit={tenant.can.edit}
        actions={{ create: createOverrideAction, end: endOverrideAction }}
      />
      <div className="panel">
        <h2>Per-key overrides</h2>
        <p className="muted">
          Keys inherit everything above; a key can override a limit by name or add its own.
        </p>
        {hierarchy.keys.map((group) => (
          <div key={group.key} className="group">
            <div className="panel-head">
              <h3>
                Key <code>{group.key}</code>
              </h3>
              {tenant.can.edit && (
                <Link href={editorHref(tenant.slug, { kind: "key", key: group.key }, null)}>
                  Add a limit for this key
                </Link>
              )}
            </div>
            <LimitHierarchyView
              slug={tenant.slug}
              rows={group.rows}
              can={tenant.can}
              here={{ kind: "key", key: group.key }}
              empty="No overrides."
              deleteAction={deleteLimitAction}
              owner={group.key}
            />
          </div>
        ))}
        {hierarchy.keys.length === 0 && (
          <p className="empty">No key has limits of its own: every key gets the limits above.</p>
        )}
        {tenant.can.edit && keysWithout.length > 0 && (
          <p>
            Give a key its own limit:{" "}
            {keysWithout.map((k, i) => (
              <span key={k}>
                {i > 0 && ", "}
                <Link href={editorHref(tenant.slug, { kind: "key", key: k }, null)}>{k}</Link>
              </span>
            ))}
          </p>
        )}
      </div>
      <LimitTreePanel tenant={tenant.slug} />
      <RedisMemory memory={memory} />
    </LiveUtilizationProvider>
  );
}
