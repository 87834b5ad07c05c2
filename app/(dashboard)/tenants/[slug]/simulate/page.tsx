import type { Metadata } from "next";
import { loadTenantTool, type TenantToolProps } from "@/app/(dashboard)/_lib/tenant-tool-page";
import { SimulateQuery, simulateCheck } from "@/lib/control/counters/simulate-check";
import { CheckForm, ParamErrors } from "@/components/ops/check-form";
import { SimulationView } from "@/components/ops/simulation-view";
import { orNotFound } from "@/app/(dashboard)/_lib/load";
import { parseCheckParams, routePatterns } from "@/app/(dashboard)/_lib/check-params";

export const metadata: Metadata = { title: "Request simulator" };

export default async function SimulatePage(props: TenantToolProps) {
  const { user, tenant, search } = await loadTenantTool(props);
  const parsed = parseCheckParams(SimulateQuery, tenant.slug, search, ["key", "route", "subject", "cost"]);
  const sim = parsed.kind === "ok" ? await orNotFound(simulateCheck(user, parsed.query)) : null;
  return (
    <div className="panel">
      <h2>Request simulator</h2>
      <p className="muted">
        Pick a key and a route (or type a check): every limit that applies, where its values come from, its
        live counter and what the next check would decide. A dry run: nothing is counted.
      </p>
      <CheckForm
        action={`/tenants/${tenant.slug}/simulate`}
        keys={tenant.keyNames}
        routes={routePatterns(tenant.doc.routes, tenant.scope.routes)}
        values={parsed.kind === "ok" ? parsed.query : {}}
        withCost
        submitLabel="Simulate"
      />
      {parsed.kind === "invalid" && <ParamErrors errors={parsed.errors} />}
      {sim && <SimulationView sim={sim} zone={user.timeZone ?? "UTC"} />}
    </div>
  );
}
