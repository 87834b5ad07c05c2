import type { Metadata } from "next";
import { requireUser } from "@/lib/control/auth/session";
import { listApiKeys } from "@/lib/control/data/api-keys";
import { tenantDetail } from "@/lib/control/data/queries/tenant-detail";
import { SimpleForm } from "@/components/forms/simple-form";
import { ConfirmButton } from "@/components/forms/confirm-button";
import { createKeyAction, revokeKeyAction } from "@/app/(dashboard)/_actions/key-actions";
import { SortableTable } from "@/components/tables/sortable-table";
import { formatDate, orNotFound } from "@/app/(dashboard)/_lib/load";
import { keysTraffic, type KeysTraffic } from "@/lib/usage/read/key-traffic";
import { isRangeId, RANGES } from "@/lib/usage/ranges";
import { RangePicker } from "@/components/usage/range-picker";
import { KEY_TRAFFIC_COLUMNS, keyTrafficCells, keyTrafficSort } from "@/components/usage/key-traffic-cells";

export const metadata: Metadata = { title: "API keys" };

function keyState(k: { revokedAt: Date | null; expiresAt: Date | null }): string {
  if (k.revokedAt) return "revoked";
  if (k.expiresAt && k.expiresAt.getTime() <= Date.now()) return "expired";
  return "active";
}

export default async function KeysPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<{ range?: string }>;
}) {
  const [{ slug }, query] = await Promise.all([params, searchParams]);
  const range = isRangeId(query.range) ? query.range : "1h";
  const user = await requireUser();
  const tenant = await orNotFound(tenantDetail(user, slug));
  const keys = await orNotFound(listApiKeys(user, slug));
  // traffic is a view of usage: unreadable usage leaves the keys listed, without numbers
  const traffic: KeysTraffic | null = await keysTraffic(user, slug, range).catch((error: unknown) => {
    console.error("[sluice] key traffic:", error);
    return null;
  });
  return (
    <>
      <div className="panel">
        <h2>API keys</h2>
        <p className="muted">
          Only a prefix of each key is stored for display; the secret itself is kept as a SHA-256 hash.
          Traffic columns cover the last {RANGES[range].label}; click a key&apos;s checks for its usage.
        </p>
        <RangePicker
          current={range}
          hrefFor={(r) => `/tenants/${encodeURIComponent(slug)}/keys${r === "1h" ? "" : `?range=${r}`}`}
        />
        {traffic === null && <p className="error">Usage could not be read right now.</p>}
        {keys.length === 0 ? (
          <p className="empty">
            No keys yet.
            {tenant.can.edit
              ? " Create one below and hand its secret to the client that calls your API."
              : ""}
          </p>
        ) : (
          <SortableTable
            testId="keys-table"
            columns={[
              { id: "name", label: "Name", rowHeader: true, className: "mono" },
              { id: "prefix", label: "Prefix", className: "mono" },
              { id: "state", label: "State" },
              { id: "created", label: "Created" },
              { id: "expires", label: "Expires" },
              { id: "used", label: "Last used" },
              ...KEY_TRAFFIC_COLUMNS,
              ...(tenant.can.edit ? [{ id: "actions", label: "Actions", sortable: false }] : []),
            ]}
            rows={keys.map((k) => {
              const state = keyState(k);
              return {
                id: k.id,
                testId: `key-${k.name}`,
                sort: {
                  name: k.name,
                  prefix: k.prefix,
                  state,
                  created: k.createdAt.getTime(),
                  expires: k.expiresAt?.getTime() ?? Number.MAX_SAFE_INTEGER,
                  used: k.lastUsedAt?.getTime() ?? 0,
                  ...keyTrafficSort(traffic?.keys.get(k.name)),
                },
                cells: [
                  k.name,
                  `${k.prefix}…`,
                  <span key="state" className={`badge ${state === "active" ? "badge-ok" : "badge-danger"}`}>
                    {state}
                  </span>,
                  formatDate(k.createdAt),
                  k.expiresAt ? formatDate(k.expiresAt) : "never",
                  k.lastUsedAt ? formatDate(k.lastUsedAt) : "never",
                  ...keyTrafficCells({
                    tenant: slug,
                    name: k.name,
                    traffic: traffic?.keys.get(k.name),
                    range,
                  }),
                  tenant.can.edit && state !== "revoked" ? (
                    <ConfirmButton
                      key="revoke"
                      label="Revoke"
                      confirmLabel="Revoke key"
                      question={`Revoke ${k.name}? Checks with it are refused at once; this cannot be undone.`}
                      action={revokeKeyAction.bind(null, { tenant: slug, name: k.name })}
                    />
                  ) : null,
                ],
              };
            })}
          />
        )}
      </div>
      {tenant.can.edit && (
        <div className="panel">
          <h2>Create a key</h2>
          <SimpleForm
            action={createKeyAction}
            testId="create-key"
            submitLabel="Create key"
            fields={[
              { name: "tenant", label: "", type: "hidden", defaultValue: slug },
              {
                name: "name",
                label: "Name",
                placeholder: "backend",
                hint: "a-z, 0-9 and -; unique in this tenant",
              },
              { name: "expiresAt", label: "Expires (UTC, optional)", type: "datetime-local" },
            ]}
          />
        </div>
      )}
    </>
  );
}
