import type { Metadata } from "next";
import { isOperator } from "@/lib/shared/principal";
import { requireUser } from "@/lib/control/auth/session";
import { listAlertDeliveries } from "@/lib/control/data/alerts/deliveries";
import { listAlertEndpoints } from "@/lib/control/data/alerts/endpoints";
import { listAlertRules } from "@/lib/control/data/alerts/rules";
import { tenantDetail } from "@/lib/control/data/queries/tenant-detail";
import { AutoRefresh } from "@/components/alerts/auto-refresh";
import { DeliveryLog } from "@/components/alerts/delivery-log";
import { EndpointsTable } from "@/components/alerts/endpoints-table";
import { RulesTable } from "@/components/alerts/rules-table";
import { SimpleForm, type FieldSpec } from "@/components/forms/simple-form";
import {
  createEndpointAction,
  createRuleAction,
  disableEndpointAction,
  disableRuleAction,
} from "@/app/(dashboard)/_actions/alert-actions";
import { orNotFound } from "@/app/(dashboard)/_lib/load";

export const metadata: Metadata = { title: "Alerts" };

// Near-limit alerts of a tenant (docs/alerts.md): rules, webhook endpoints, the delivery log.
export default async function AlertsPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requireUser();
  const tenant = await orNotFound(tenantDetail(user, slug));
  const [rules, endpoints, deliveries] = await orNotFound(
    Promise.all([
      listAlertRules(user, slug),
      listAlertEndpoints(user, slug),
      listAlertDeliveries(user, slug, 50),
    ]),
  );
  const active = endpoints.filter((e) => !e.disabledAt).map((e) => e.name);
  const endpointFields: FieldSpec[] = [
    { name: "tenant", label: "", type: "hidden", defaultValue: slug },
    { name: "name", label: "Name", placeholder: "ops-slack", hint: "a-z, 0-9 and -" },
    {
      name: "url",
      label: "URL",
      placeholder: "https://hooks.example.com/sluice",
      hint: isOperator(user)
        ? "http or https; a private network only with the choice below"
        : "http or https; not a private network (an operator can allow one)",
    },
    // right below the URL: a refused private host's message points at it
    ...(isOperator(user)
      ? [
          {
            name: "allowPrivate",
            label: "Allow private networks (operator)",
            type: "select" as const,
            options: ["no", "yes"],
          },
        ]
      : []),
    { name: "format", label: "Format", type: "select", options: ["json", "slack"] },
  ];
  const ruleFields: FieldSpec[] = [
    { name: "tenant", label: "", type: "hidden", defaultValue: slug },
    { name: "name", label: "Name", placeholder: "near-limit" },
    { name: "kind", label: "When", type: "select", options: ["utilization", "rejection_rate", "degraded"] },
    { name: "endpoint", label: "Send to", type: "select", options: active },
    { name: "limit", label: "Limit (utilization)", placeholder: "api-rps" },
    { name: "thresholdPct", label: "Above (%)", placeholder: "80" },
    { name: "forSeconds", label: "For (seconds)", defaultValue: "60" },
    { name: "key", label: "Only key (optional)", placeholder: "backend" },
    { name: "route", label: "Only route (optional)", placeholder: "GET /v1/items/:id" },
  ];
  return (
    <>
      <AutoRefresh everyMs={5_000} />
      <div className="panel">
        <h2>Alert rules</h2>
        <p className="muted">
          Evaluated from the recorded usage every few seconds; each firing is sent once, then once more when
          it resolves.
        </p>
        <RulesTable slug={slug} rules={rules} canEdit={tenant.can.edit} disable={disableRuleAction} />
      </div>
      {tenant.can.edit && active.length > 0 && (
        <div className="panel">
          <h2>Create a rule</h2>
          <SimpleForm
            action={createRuleAction}
            testId="create-alert-rule"
            submitLabel="Create rule"
            fields={ruleFields}
          />
        </div>
      )}
      <div className="panel">
        <h2>Webhook endpoints</h2>
        <p className="muted">
          Each message is signed with the endpoint&apos;s secret (HMAC-SHA256 over timestamp and body); see
          the alerts guide for checking it.
        </p>
        <EndpointsTable
          slug={slug}
          endpoints={endpoints}
          canAdmin={tenant.can.admin}
          disable={disableEndpointAction}
        />
      </div>
      {tenant.can.admin && (
        <div className="panel">
          <h2>Add an endpoint</h2>
          <SimpleForm
            action={createEndpointAction}
            testId="create-alert-endpoint"
            submitLabel="Add endpoint"
            fields={endpointFields}
          />
        </div>
      )}
      <div className="panel">
        <h2>Delivery log</h2>
        <DeliveryLog deliveries={deliveries} zone={user.timeZone} />
      </div>
    </>
  );
}
