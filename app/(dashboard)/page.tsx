import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/control/auth/session";
import { listPlanNames } from "@/lib/control/data/queries/list-tenants";
import { tenantPage } from "@/lib/control/data/queries/tenant-page";
import { parseTenantListQuery } from "@/lib/control/lists/tenant-list-query";
import type { RawParams } from "@/lib/control/lists/list-params";
import { SimpleForm } from "@/components/forms/simple-form";
import { StatusBadge } from "@/components/tenants/status-badge";
import { TenantTrafficCell } from "@/components/tenants/tenant-traffic-cell";
import { TrafficNote } from "@/components/tenants/traffic-note";
import { OverviewDegradedBanner } from "@/components/usage/overview-degraded-banner";
import { MostLimitedPanel } from "@/components/usage/most-limited-panel";
import { isRangeId } from "@/lib/usage/ranges";
import { ServerSortedTable, type ServerColumn } from "@/components/lists/server-sorted-table";
import { Pager } from "@/components/lists/pager";
import { TenantFilters } from "@/components/lists/tenant-filters";
import { ListParamErrors } from "@/components/lists/param-errors";
import { AutoRefresh } from "@/components/alerts/auto-refresh";
import { createTenantAction } from "@/app/(dashboard)/_actions/tenant-actions";

export const metadata: Metadata = { title: "Overview" };

// Tenants a page at a time, searched, filtered and sorted on the server (10,000 tenants load
// as fast as 10); re-read every 15 s while open, as the rollup renews the traffic.
const REFRESH_MS = 15_000;

const COLUMNS: ServerColumn[] = [
  { id: "tenant", label: "Tenant", first: "asc" },
  { id: "plan", label: "Plan", first: "asc" },
  { id: "status", label: "Status", first: "asc" },
  { id: "traffic", label: "Traffic (15 min)", first: "desc" },
  { id: "rejected", label: "Rejected", first: "desc", align: "right" },
  { id: "keys", label: "Active keys", first: "desc", align: "right" },
  { id: "role", label: "Your role", first: "asc" },
];

export default async function OverviewPage({ searchParams }: { searchParams: Promise<RawParams> }) {
  const user = await requireUser();
  const params = await searchParams;
  const range = typeof params.range === "string" ? params.range : undefined;
  const { query, errors } = parseTenantListQuery(params);
  const [page, plans] = await Promise.all([tenantPage(user, query), listPlanNames()]);
  const state = {
    q: query.q,
    plan: query.plan,
    status: query.status,
    sort: query.sort,
    dir: query.dir,
    size: query.size === 50 ? undefined : query.size,
    range,
  };
  const filtered = query.q !== "" || query.plan !== undefined || query.status !== undefined;
  return (
    <section>
      <AutoRefresh everyMs={REFRESH_MS} />
      <h1>Overview</h1>
      <OverviewDegradedBanner principal={user} />
      <div className="panel">
        <h2>Tenants</h2>
        <ListParamErrors errors={errors} />
        {page.total === 0 && !filtered ? (
          <p className="empty">
            {user.isOperator
              ? "No tenants yet. Create the first one below, then give it keys and limits."
              : "You are not a member of any tenant yet. Ask a tenant admin or an operator to add you."}
          </p>
        ) : (
          <>
            <TenantFilters path="/" query={query} plans={user.isOperator ? plans : []} />
            {page.total === 0 ? (
              <p className="empty" data-testid="tenants-none-found">
                No tenant matches. <Link href="/">Show all</Link>
              </p>
            ) : (
              <ServerSortedTable
                testId="tenants-table"
                path="/"
                state={state}
                sort={query.sort}
                dir={query.dir}
                columns={COLUMNS}
                rows={page.rows.map((t) => ({
                  id: t.id,
                  testId: `tenant-row-${t.slug}`,
                  cells: [
                    <>
                      <Link href={`/tenants/${t.slug}`}>{t.name}</Link>{" "}
                      <span className="muted mono">{t.slug}</span>
                    </>,
                    t.plan,
                    <StatusBadge key="status" status={t.status} />,
                    <TenantTrafficCell
                      key="traffic"
                      slug={t.slug}
                      checks={t.checks}
                      rejected={t.rejected}
                      degraded={t.degraded}
                    />,
                    t.rejected.toLocaleString("en-US"),
                    t.keys,
                    t.role,
                  ],
                }))}
              />
            )}
            <Pager
              path="/"
              state={state}
              page={page.page}
              pages={page.pages}
              total={page.total}
              noun="tenants"
            />
            <TrafficNote until={page.trafficUntil} zone={user.timeZone ?? "UTC"} />
          </>
        )}
      </div>
      {page.total > 0 && <MostLimitedPanel principal={user} range={isRangeId(range) ? range : "15m"} />}
      {user.isOperator && (
        <div className="panel">
          <h2>Create a tenant</h2>
          <SimpleForm
            action={createTenantAction}
            testId="create-tenant"
            submitLabel="Create tenant"
            inline
            fields={[
              {
                name: "slug",
                label: "Slug",
                placeholder: "acme",
                hint: "a-z, 0-9 and -; used in URLs and checks",
              },
              { name: "name", label: "Display name", placeholder: "Acme Corp" },
              { name: "plan", label: "Plan", type: "select", options: plans },
            ]}
          />
        </div>
      )}
    </section>
  );
}
