import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/control/auth/session";
import { NotFoundError } from "@/lib/control/errors/errors";
import { dashboardData } from "@/lib/usage/read/dashboard";
import { isRangeId } from "@/lib/usage/ranges";
import { UsageDashboard } from "@/components/usage/usage-dashboard";
import { mayActOnDegraded } from "@/lib/usage/read/degraded-causes";
import { LimitTreePanel } from "@/components/limit-tree/limit-tree-panel";
import { usageHref } from "@/components/usage/usage-hrefs";
import { usageHeading } from "@/components/usage/usage-heading";
import { parseCustomWindow } from "@/lib/usage/read/custom-window";
import { withHottestNow } from "@/lib/control/counters/hottest-now";

export const dynamic = "force-dynamic";

interface Props {
  params: Promise<{ tenant: string }>;
  searchParams: Promise<{
    key?: string;
    route?: string;
    range?: string;
    from?: string;
    to?: string;
    compare?: string;
  }>;
}

// each tenant's (and key's, route's) usage page has its own title, for tabs and history
export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const [{ tenant }, query] = await Promise.all([params, searchParams]);
  return {
    title: usageHeading({
      tenant: decodeURIComponent(tenant),
      key: query.key ?? null,
      route: query.route ?? null,
    }),
  };
}

// One tenant, optionally narrowed to a key and then a route (the drill-down trail on top).
export default async function TenantUsagePage({ params, searchParams }: Props) {
  const user = await requireUser();
  const { tenant } = await params;
  const query = await searchParams;
  const range = isRangeId(query.range) ? query.range : "15m";
  // a bad custom range is named and ignored: the preset range shows instead
  const parsed = parseCustomWindow(query.from, query.to);
  const window = parsed.kind === "ok" ? parsed.window : null;
  const view = {
    tenant: decodeURIComponent(tenant),
    key: query.key ?? null,
    route: query.route ?? null,
    range,
    window,
    compare: query.compare === "1",
  };
  let initial;
  let canAct = false;
  try {
    canAct = await mayActOnDegraded(user, view.tenant);
    // rates from usage, "now" from the counters (Hottest limits), as the Limits tab reads them
    initial = await withHottestNow(
      user,
      await dashboardData(user, {
        tenant: view.tenant,
        key: query.key,
        route: query.route,
        range,
        window: window ?? undefined,
        compare: view.compare,
      }),
    );
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
  return (
    <section>
      <nav aria-label="Breadcrumb" className="muted">
        <Link href={usageHref({ ...view, tenant: null, key: null, route: null })}>Usage</Link>
        {" / "}
        <Link href={usageHref({ ...view, key: null, route: null })}>{view.tenant}</Link>
        {view.key ? (
          <>
            {" "}
            / <Link href={usageHref({ ...view, route: null })}>key {view.key}</Link>
          </>
        ) : null}
        {view.route ? <> / route {view.route}</> : null}
      </nav>
      <h1>{usageHeading(view)}</h1>
      {parsed.kind === "invalid" ? (
        <p className="error" role="alert" data-testid="range-error">
          Custom range not applied: {parsed.field} {parsed.message}.
        </p>
      ) : null}
      <UsageDashboard
        key={`${view.key}|${view.route}|${range}|${window?.from ?? ""}|${window?.to ?? ""}|${view.compare}`}
        initial={initial}
        canAct={canAct}
      />
      <LimitTreePanel key={range} tenant={view.tenant} range={range} />
    </section>
  );
}
