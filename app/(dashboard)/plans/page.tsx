import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/control/auth/session";
import { PLAN_USERS_NAMED, plansDocument } from "@/lib/control/data/queries/config-yaml";
import { SimpleForm } from "@/components/forms/simple-form";
import { ConfirmButton } from "@/components/forms/confirm-button";
import { editorHref } from "@/components/limits/editor-href";
import {
  createPlanAction,
  removePlanAction,
  setPlanServiceAction,
} from "@/app/(dashboard)/_actions/plan-actions";
import { addRouteAction, removeRouteAction } from "@/app/(dashboard)/_actions/route-actions";
import { orNotFound } from "@/app/(dashboard)/_lib/load";
import { deleteLimitAction } from "@/app/(dashboard)/_actions/limit-actions";
import { ConfigLimitTable } from "@/components/limits/config-limit-table";
import { RouteFilter } from "@/components/limits/route-filter";
import { RouteGroup } from "@/components/limits/route-group";
import { SavedNotice } from "@/components/limits/saved-notice";
import { undoSaveAction } from "@/app/(dashboard)/_actions/revert-actions";
import { serviceLimitText } from "@/components/plans/service-limit-text";

export const metadata: Metadata = { title: "Plans & global routes" };

/** "acme, beta" or "1,204 tenants (acme, beta, ...)", the count linking to the tenants list of the plan. */
function PlanUsers({ plan, use }: { plan: string; use: { tenants: number; some: string[] } | undefined }) {
  if (!use) return <>no tenant</>;
  if (use.tenants <= PLAN_USERS_NAMED) return <>{use.some.join(", ")}</>;
  return (
    <>
      <Link href={`/?plan=${encodeURIComponent(plan)}`} data-testid={`plan-tenants-${plan}`}>
        {use.tenants.toLocaleString("en-US")} tenants
      </Link>{" "}
      ({use.some.join(", ")}, …)
    </>
  );
}

export default async function PlansPage() {
  const user = await requireUser();
  // operators only: anyone else gets the 404 page. The tenants are counted, not read: 10,000
  // tenants' configuration is not the plans page's.
  const { doc, uses } = await orNotFound(plansDocument(user));
  return (
    <section>
      <h1>Plans &amp; global routes</h1>
      <SavedNotice undo={undoSaveAction} />
      <div className="panel" id="plans">
        <h2>Plans</h2>
        <p className="muted">
          Each plan on one line: open it to see and edit its limits. A tenant gets its plan&apos;s limits,
          then its own overrides. A plan&apos;s service limit caps the checks each check front answers for
          each of its tenants.
        </p>
        {(doc.plans ?? []).map((plan) => (
          <details className="group route-group" key={plan.name} data-testid={`plan-${plan.name}`}>
            <summary>
              <h3>Plan {plan.name}</h3>
              <span className="muted">
                {plan.limits.length} limit{plan.limits.length === 1 ? "" : "s"} · used by{" "}
                <PlanUsers plan={plan.name} use={uses.get(plan.name)} />
              </span>
            </summary>
            <p data-testid={`service-limit-${plan.name}`}>Service limit: {serviceLimitText(plan.service)}</p>
            <ConfigLimitTable
              scope={{ kind: "plan", plan: plan.name }}
              limits={plan.limits}
              deleteAction={deleteLimitAction}
            />
            <SimpleForm
              action={setPlanServiceAction}
              inline
              testId={`service-form-${plan.name}`}
              idPrefix={`plan-${plan.name}`}
              submitLabel="Save service limit"
              fields={[
                { name: "name", label: "Plan", type: "hidden", defaultValue: plan.name },
                {
                  name: "checksPerSecond",
                  label: "Service checks/s per check front",
                  placeholder: "none",
                  defaultValue: plan.service ? String(plan.service.checksPerSecond) : "",
                  hint: "empty: no service limit",
                },
                {
                  name: "burst",
                  label: "Service burst",
                  placeholder: "= checks/s",
                  defaultValue: plan.service?.burst === undefined ? "" : String(plan.service.burst),
                  hint: "at least 1,000",
                },
              ]}
            />
            <div className="row-actions">
              <Link href={editorHref("", { kind: "plan", plan: plan.name }, null)}>Add a limit</Link>
              {!uses.has(plan.name) && (
                <ConfirmButton
                  label="Delete plan"
                  confirmLabel="Delete plan"
                  question={`Delete plan ${plan.name}?`}
                  action={removePlanAction.bind(null, { name: plan.name })}
                />
              )}
            </div>
          </details>
        ))}
      </div>
      {(doc.plans ?? []).length === 0 && (
        <p className="empty panel">No plans yet: create one, then give it limits.</p>
      )}
      <div className="panel">
        <h2>New plan</h2>
        <SimpleForm
          action={createPlanAction}
          inline
          submitLabel="Create plan"
          fields={[{ name: "name", label: "Name", placeholder: "enterprise" }]}
        />
      </div>
      <div className="panel" id="global-routes">
        <h2>Global routes</h2>
        <p className="muted">
          Their limits apply to every tenant for checks whose route resolves to the pattern.
        </p>
        {(doc.routes ?? []).length > 6 && <RouteFilter scope="global-routes" />}
        {(doc.routes ?? []).map((route) => (
          <RouteGroup key={route.pattern} route={route.pattern} count={route.limits.length} open={false}>
            <ConfigLimitTable
              scope={{ kind: "global-route", pattern: route.pattern }}
              limits={route.limits}
              deleteAction={deleteLimitAction}
            />
            <div className="row-actions">
              <Link href={editorHref("", { kind: "global-route", pattern: route.pattern }, null)}>
                Add a limit
              </Link>
              <ConfirmButton
                label="Remove route"
                confirmLabel="Remove route"
                question={`Remove ${route.pattern} and its limits for every tenant?`}
                action={removeRouteAction.bind(null, { pattern: route.pattern })}
              />
            </div>
          </RouteGroup>
        ))}
        {(doc.routes ?? []).length === 0 && <p className="empty">No global routes.</p>}
        <SimpleForm
          action={addRouteAction}
          inline
          submitLabel="Add global route"
          fields={[{ name: "pattern", label: "Pattern", placeholder: "POST /v1/search" }]}
        />
      </div>
    </section>
  );
}
