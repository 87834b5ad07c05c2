import type { Metadata } from "next";
import { loadTenantTool, type TenantToolProps } from "@/app/(dashboard)/_lib/tenant-tool-page";
import { orNotFound } from "@/app/(dashboard)/_lib/load";
import { ParamErrors } from "@/components/ops/check-form";
import { parseCheckParams, routePatterns } from "@/app/(dashboard)/_lib/check-params";
import { DecisionLogFilters } from "@/components/ops/decision-log-filters";
import { DecisionLogTable } from "@/components/ops/decision-log-table";
import { readDecisionLog } from "@/lib/control/ops/decision-log";
import {
  DecisionLogQuery,
  LOG_FILTER_FIELDS,
  LOG_MAX_ROWS,
  LOG_REASONS,
} from "@/lib/control/ops/decision-log-query";

export const metadata: Metadata = { title: "Decision log" };

/** The page's query as the API's, for the CSV link: the same filters, format=csv. */
function csvHref(query: DecisionLogQuery): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && name !== "limit" && name !== "format") params.set(name, String(value));
  }
  params.set("format", "csv");
  return `/api/admin/decisions?${params.toString()}`;
}

export default async function DecisionLogPage(props: TenantToolProps) {
  const { user, tenant, search } = await loadTenantTool(props);
  const parsed = parseCheckParams(DecisionLogQuery, tenant.slug, search, LOG_FILTER_FIELDS);
  const query: DecisionLogQuery | null =
    parsed.kind === "ok" ? parsed.query : parsed.kind === "empty" ? { tenant: tenant.slug } : null;
  const log = query ? await orNotFound(readDecisionLog(user, query)) : null;
  return (
    <div className="panel">
      <h2>Decision log</h2>
      <p className="muted">
        The tenant&apos;s latest sampled decisions, denials and degraded answers, newest first. Each front
        samples at most {log?.bound.perFlushPerFront ?? 50} decisions and as many denials and degraded answers
        of the tenant a second; the tenant keeps the last {log?.bound.decisionsPerTenant ?? 500} of each, for{" "}
        {log?.bound.idleExpiryHours ?? 24} h after its last decision.
      </p>
      <DecisionLogFilters
        action={`/tenants/${tenant.slug}/decisions`}
        keys={tenant.keyNames}
        routes={routePatterns(tenant.doc.routes, tenant.scope.routes)}
        reasons={LOG_REASONS}
        values={parsed.kind === "ok" ? parsed.query : {}}
      />
      {parsed.kind === "invalid" && <ParamErrors errors={parsed.errors} />}
      {log && query && (
        <>
          <p data-testid="log-summary">
            {log.entries.length} shown of {log.matched} matching, {log.sampled} in the sample.{" "}
            <a href={csvHref(query)} download>
              Download CSV
            </a>{" "}
            <span className="muted">(at most {LOG_MAX_ROWS} rows)</span>
          </p>
          <DecisionLogTable rows={log.entries} zone={user.timeZone ?? "UTC"} />
        </>
      )}
    </div>
  );
}
