import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/control/auth/session";
import { tenantDetail } from "@/lib/control/data/queries/tenant-detail";
import { SimpleForm } from "@/components/forms/simple-form";
import { ConfirmButton } from "@/components/forms/confirm-button";
import { describeRule } from "@/components/limits/format-limit";
import { editorHref } from "@/components/limits/editor-href";
import { normalizeLimit } from "@/lib/control/config/document";
import { addRouteAction, removeRouteAction } from "@/app/(dashboard)/_actions/route-actions";
import { SortableTable } from "@/components/tables/sortable-table";
import { orNotFound } from "@/app/(dashboard)/_lib/load";

export const metadata: Metadata = { title: "Routes" };

export default async function RoutesPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requireUser();
  const tenant = await orNotFound(tenantDetail(user, slug));
  return (
    <>
      <div className="panel">
        <h2>This tenant&apos;s routes</h2>
        <p className="muted">
          A check&apos;s route resolves twice: to the most specific global pattern and to the most specific of
          this tenant&apos;s own. The limits of both apply, so a route here adds limits but never removes one
          set on a global route.
        </p>
        {tenant.doc.routes.length === 0 ? (
          <p className="empty">
            No routes of its own.{tenant.can.edit ? " Add a pattern below, then give it limits." : ""}
          </p>
        ) : (
          <SortableTable
            testId="tenant-routes-table"
            columns={[
              { id: "pattern", label: "Pattern", rowHeader: true },
              { id: "count", label: "Limits" },
              ...(tenant.can.edit ? [{ id: "actions", label: "Actions", sortable: false }] : []),
            ]}
            rows={tenant.doc.routes.map((r) => ({
              id: r.pattern,
              testId: `route-${r.pattern}`,
              sort: { pattern: r.pattern, count: r.limits.length },
              cells: [
                <code key="pattern">{r.pattern}</code>,
                <ul key="limits" className="route-limits">
                  {r.limits.map((l) => (
                    <li key={l.name}>
                      <span className="mono">{l.name}</span>{" "}
                      <span className="muted">{describeRule(normalizeLimit(l))}</span>{" "}
                      {tenant.can.edit && (
                        <Link href={editorHref(slug, { kind: "tenant-route", pattern: r.pattern }, l.name)}>
                          Edit
                        </Link>
                      )}
                    </li>
                  ))}
                  {r.limits.length === 0 && <li className="muted">no limits yet</li>}
                </ul>,
                tenant.can.edit ? (
                  <div key="actions" className="row-actions">
                    <Link href={editorHref(slug, { kind: "tenant-route", pattern: r.pattern }, null)}>
                      Add a limit
                    </Link>
                    <ConfirmButton
                      label="Remove route"
                      confirmLabel="Remove route and its limits"
                      question={`Remove ${r.pattern} and its ${r.limits.length} limit(s)?`}
                      action={removeRouteAction.bind(null, { tenant: slug, pattern: r.pattern })}
                    />
                  </div>
                ) : null,
              ],
            }))}
          />
        )}
        {tenant.can.edit && (
          <SimpleForm
            action={addRouteAction}
            inline
            submitLabel="Add route"
            fields={[
              { name: "tenant", label: "", type: "hidden", defaultValue: slug },
              {
                name: "pattern",
                label: "Pattern",
                placeholder: "GET /v1/reports/*",
                hint: "METHOD /path with :param or prefix* segments or a final *",
              },
            ]}
          />
        )}
      </div>
      <div className="panel">
        <h2>Global routes</h2>
        {tenant.scope.routes.length === 0 ? (
          <p className="empty">No global routes.</p>
        ) : (
          <SortableTable
            testId="global-routes-table"
            columns={[
              { id: "pattern", label: "Pattern", rowHeader: true },
              { id: "count", label: "Limits" },
            ]}
            rows={tenant.scope.routes.map((r) => ({
              id: r.pattern,
              sort: { pattern: r.pattern, count: r.limits.length },
              cells: [
                <code key="pattern">{r.pattern}</code>,
                <span key="limits" className="muted">
                  {r.limits.map((l) => `${l.name}: ${describeRule(normalizeLimit(l))}`).join("; ") ||
                    "no limits"}
                </span>,
              ],
            }))}
          />
        )}
      </div>
    </>
  );
}
