import type { Metadata } from "next";
import { requireUser } from "@/lib/control/auth/session";
import { listApiKeys, type KeySummary } from "@/lib/control/data/api-keys";
import { tenantDetail } from "@/lib/control/data/queries/tenant-detail";
import { SimpleForm } from "@/components/forms/simple-form";
import { ConfirmButton } from "@/components/forms/confirm-button";
import { createKeyAction, revokeKeyAction, rotateKeyAction } from "@/app/(dashboard)/_actions/key-actions";
import { graceLabels } from "@/lib/control/keys/grace-choices";
import { SortableTable } from "@/components/tables/sortable-table";
import { formatDate, orNotFound } from "@/app/(dashboard)/_lib/load";
import { keysTraffic, type KeysTraffic } from "@/lib/usage/read/key-traffic";
import { isRangeId, RANGES } from "@/lib/usage/ranges";
import { RangePicker } from "@/components/usage/range-picker";
import { keyTrafficColumns, type KeyTrafficItem } from "@/components/usage/key-traffic-cells";
import { tableColumns, tableRows, type ColumnDef } from "@/components/tables/column-defs";
import type { RangeId } from "@/lib/usage/ranges";

export const metadata: Metadata = { title: "API keys" };

function keyState(k: { revokedAt: Date | null; expiresAt: Date | null }): string {
  if (k.revokedAt) return "revoked";
  if (k.expiresAt && k.expiresAt.getTime() <= Date.now()) return "expired";
  return "active";
}

interface KeyItem extends KeySummary, KeyTrafficItem {
  state: string;
}

/** The table's columns, each with its header, sort value and cell. */
function keyColumns(tenant: string, range: RangeId, canEdit: boolean, zone: string): ColumnDef<KeyItem>[] {
  const columns: ColumnDef<KeyItem>[] = [
    {
      id: "name",
      label: "Name",
      rowHeader: true,
      className: "mono",
      sort: (k) => k.name,
      cell: (k) => k.name,
    },
    { id: "prefix", label: "Prefix", className: "mono", sort: (k) => k.prefix, cell: (k) => `${k.prefix}…` },
    {
      id: "state",
      label: "State",
      sort: (k) => k.state,
      cell: (k) => [
        <span key="state" className={`badge ${k.state === "active" ? "badge-ok" : "badge-danger"}`}>
          {k.state}
        </span>,
        // a rotation's old secret still in its grace period
        k.state === "active" && k.previousUntil && k.previousUntil.getTime() > Date.now() ? (
          <span key="previous" className="muted small" data-testid="key-previous">
            {" "}
            old secret {k.previousPrefix}… works until {formatDate(k.previousUntil, zone)}
          </span>
        ) : null,
      ],
    },
    {
      id: "created",
      label: "Created",
      sort: (k) => k.createdAt.getTime(),
      cell: (k) => formatDate(k.createdAt, zone),
    },
    {
      id: "expires",
      label: "Expires",
      sort: (k) => k.expiresAt?.getTime() ?? Number.MAX_SAFE_INTEGER,
      cell: (k) => (k.expiresAt ? formatDate(k.expiresAt, zone) : "never"),
    },
    {
      id: "used",
      label: "Last used",
      sort: (k) => k.lastUsedAt?.getTime() ?? 0,
      cell: (k) => (k.lastUsedAt ? formatDate(k.lastUsedAt, zone) : "never"),
    },
    ...keyTrafficColumns(tenant, range),
  ];
  if (!canEdit) return columns;
  const actions: ColumnDef<KeyItem> = {
    id: "actions",
    label: "Actions",
    cell: (k) =>
      k.state !== "revoked" ? (
        <ConfirmButton
          key="revoke"
          label="Revoke"
          confirmLabel="Revoke key"
          question={`Revoke ${k.name}? Checks with it are refused at once; this cannot be undone.`}
          action={revokeKeyAction.bind(null, { tenant, name: k.name })}
        />
      ) : null,
  };
  return [...columns, actions];
}

export default async function KeysPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<{ range?: string; q?: string }>;
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
  const columns = keyColumns(slug, range, tenant.can.edit, user.timeZone ?? "UTC");
  // ?q= (the header search's key links): keys whose name or prefix contains it; a tenant
  // holds at most SLUICE_MAX_KEYS_PER_TENANT keys, so they are filtered here
  const q = typeof query.q === "string" ? query.q.trim().slice(0, 100).toLowerCase() : "";
  const shown =
    q === "" ? keys : keys.filter((k) => k.name.includes(q) || k.prefix.toLowerCase().includes(q));
  const items: KeyItem[] = shown.map((k) => ({
    ...k,
    state: keyState(k),
    traffic: traffic?.keys.get(k.name),
  }));
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
        <form method="get" className="list-search" role="search">
          <label>
            Find a key
            <input type="search" name="q" defaultValue={q} maxLength={100} placeholder="name or prefix" />
          </label>
          {range !== "1h" && <input type="hidden" name="range" value={range} />}
          <button type="submit">Find</button>
        </form>
        {q !== "" && (
          <p className="muted" data-testid="keys-filter-status">
            {shown.length} of {keys.length} keys match “{q}”.
          </p>
        )}
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
            columns={tableColumns(columns)}
            rows={tableRows(columns, items, (k) => ({ id: k.id, testId: `key-${k.name}` }))}
          />
        )}
      </div>
      {tenant.can.edit && keys.some((k) => keyState(k) === "active") && (
        <div className="panel">
          <h2>Rotate a key</h2>
          <p className="muted">
            A new secret for the same key (same limits, same counters). The old secret keeps working for the
            grace period you choose, so clients can switch over; then it is refused as revoked.
          </p>
          <SimpleForm
            action={rotateKeyAction}
            testId="rotate-key"
            idPrefix="rotate"
            submitLabel="Rotate key"
            fields={[
              { name: "tenant", label: "", type: "hidden", defaultValue: slug },
              {
                name: "name",
                label: "Key",
                type: "select",
                options: keys.filter((k) => keyState(k) === "active").map((k) => k.name),
              },
              {
                name: "grace",
                label: "Old secret keeps working for",
                type: "select",
                options: graceLabels,
                defaultValue: "24 hours",
              },
            ]}
          />
        </div>
      )}
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
