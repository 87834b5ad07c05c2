import type { Metadata } from "next";
import { loadTenantTool, type TenantToolProps } from "@/app/(dashboard)/_lib/tenant-tool-page";
import { LookupQuery, lookupIdentifier } from "@/lib/control/ops/identifier-lookup";
import { CheckForm, ParamErrors } from "@/components/ops/check-form";
import { LookupView } from "@/components/ops/lookup-view";
import { liftPenaltyAction, resetCounterAction } from "@/app/(dashboard)/_actions/ops-actions";
import { orNotFound } from "@/app/(dashboard)/_lib/load";
import { parseCheckParams, routePatterns } from "@/app/(dashboard)/_lib/check-params";

export const metadata: Metadata = { title: "Identifier lookup" };

export default async function LookupPage(props: TenantToolProps) {
  const { user, tenant, search } = await loadTenantTool(props);
  const parsed = parseCheckParams(LookupQuery, tenant.slug, search, ["key", "route", "subject"]);
  const lookup = parsed.kind === "ok" ? await orNotFound(lookupIdentifier(user, parsed.query)) : null;
  return (
    <div className="panel">
      <h2>Identifier lookup</h2>
      <p className="muted">
        A key, a subject (an IP, a user id) or a route: its live counters for every limit, its recent
        decisions and which limit denied them.
      </p>
      <CheckForm
        action={`/tenants/${tenant.slug}/lookup`}
        keys={tenant.keyNames}
        routes={routePatterns(tenant.doc.routes, tenant.scope.routes)}
        values={parsed.kind === "ok" ? parsed.query : {}}
        withCost={false}
        submitLabel="Look up"
      />
      {parsed.kind === "invalid" && <ParamErrors errors={parsed.errors} />}
      {lookup && (
        <LookupView
          lookup={lookup}
          reset={resetCounterAction}
          lift={liftPenaltyAction}
          zone={user.timeZone ?? "UTC"}
        />
      )}
    </div>
  );
}
