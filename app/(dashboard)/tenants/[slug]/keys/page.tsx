import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/control/auth/session";
import { activeKeyNames, keyPage, type KeyTotals } from "@/lib/control/data/queries/key-page";
import { tenantDetail } from "@/lib/control/data/queries/tenant-detail";
import { parseKeyListQuery, TRAFFIC_SORTS } from "@/lib/control/lists/key-list-query";
import type { RawParams } from "@/lib/control/lists/list-params";
import { SimpleForm } from "@/components/forms/simple-form";
import { createKeyAction, rotateKeyAction } from "@/app/(dashboard)/_actions/key-actions";
import { graceLabels } from "@/lib/control/keys/grace-choices";
import { orNotFound } from "@/app/(dashboard)/_lib/load";
import { keysTraffic, type KeysTraffic } from "@/lib/usage/read/key-traffic";
import { KEY_RANGE_IDS, RANGES } from "@/lib/usage/ranges";
import { RangePicker } from "@/components/usage/range-picker";
import { ServerSortedTable } from "@/components/lists/server-sorted-table";
import { Pager } from "@/components/lists/pager";
import { ListParamErrors } from "@/components/lists/param-errors";
import { listHref } from "@/components/lists/list-href";
import { KeyListFilters } from "@/components/keys/key-list-filters";
import { keyListColumns } from "@/app/(dashboard)/tenants/[slug]/keys/key-list-columns";

export const metadata: Metadata = { title: "API keys" };

/** Up to this many active keys the rotate form offers them in a list. */
const ROTATE_CHOICES = 200;

function keyState(k: { revokedAt: Date | null; expiresAt: Date | null }): string {
  if (k.revokedAt) return "revoked";
  if (k.expiresAt && k.expiresAt.getTime() <= Date.now()) return "expired";
  return "active";
}

/** Usage is a view: unreadable usage leaves the keys listed, without numbers. */
async function trafficOrNull(read: Promise<KeysTraffic>): Promise<KeysTraffic | null> {
  return read.catch((error: unknown) => {
    console.error("[sluice] key traffic:", error);
    return null;
  });
}

// A page of the tenant's keys at a time (a busy tenant has thousands), searched, filtered and
// sorted on the server. Traffic is read for the keys shown only, unless the list is sorted by
// it: then every key's, once, and the order comes from those totals.
export default async function KeysPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<RawParams>;
}) {
  const [{ slug }, raw] = await Promise.all([params, searchParams]);
  const { query, errors } = parseKeyListQuery(raw, KEY_RANGE_IDS);
  const user = await requireUser();
  const tenant = await orNotFound(tenantDetail(user, slug));
  const byTraffic = TRAFFIC_SORTS.includes(query.sort);
  const all = byTraffic ? await trafficOrNull(keysTraffic(user, slug, query.range)) : null;
  const totals: KeyTotals | undefined = all
    ? {
        names: [...all.keys.keys()],
        checks: [...all.keys.values()].map((t) => t.checks),
        rejected: [...all.keys.values()].map((t) => t.rejected),
      }
    : undefined;
  const page = await orNotFound(keyPage(user, slug, query, totals));
  const traffic = byTraffic
    ? all
    : await trafficOrNull(
        keysTraffic(
          user,
          slug,
          query.range,
          undefined,
          page.rows.map((k) => k.id),
        ),
      );
  const path = `/tenants/${encodeURIComponent(slug)}/keys`;
  const state = {
    q: query.q,
    state: query.state,
    sort: query.sort === "name" && query.dir === "asc" ? undefined : query.sort,
    dir: query.sort === "name" && query.dir === "asc" ? undefined : query.dir,
    size: query.size === 50 ? undefined : query.size,
    range: query.range === "1h" ? undefined : query.range,
  };
  const columns = keyListColumns(slug, query.range, tenant.can.edit, user.timeZone ?? "UTC");
  const filtered = query.q !== "" || query.state !== undefined;
  // the rotate form lists the active keys while they are few; a busy tenant types the name
  const rotatable = tenant.can.edit ? await activeKeyNames(user, slug, ROTATE_CHOICES + 1) : [];
  return (
    <>
      <div className="panel">
        <h2>API keys</h2>
        <p className="muted">
          Only a prefix of each key is stored for display; the secret itself is kept as a SHA-256 hash.
          Traffic columns cover the last {RANGES[query.range].label}; click a key&apos;s checks for its usage.
        </p>
        <RangePicker
          current={query.range}
          hrefFor={(r) => listHref(path, state, { range: r === "1h" ? undefined : r, page: undefined })}
        />
        {traffic === null && <p className="error">Usage could not be read right now.</p>}
        <ListParamErrors errors={errors} />
        {page.all === 0 ? (
          <p className="empty">
            No keys yet.
            {tenant.can.edit
              ? " Create one below and hand its secret to the client that calls your API."
              : ""}
          </p>
        ) : (
          <>
            <KeyListFilters path={path} query={query} />
            {filtered && (
              <p className="muted" data-testid="keys-filter-status">
                {page.total.toLocaleString("en-US")} of {page.all.toLocaleString("en-US")} keys match
                {query.q !== "" ? ` “${query.q}”` : ""}
                {query.state !== undefined ? ` (${query.state})` : ""}.
              </p>
            )}
            {page.total === 0 ? (
              <p className="empty" data-testid="keys-none-found">
                No key matches. <Link href={path}>Show all</Link>
              </p>
            ) : (
              <ServerSortedTable
                testId="keys-table"
                path={path}
                state={state}
                sort={query.sort}
                dir={query.dir}
                columns={columns.map((c) => c.head)}
                rows={page.rows.map((k) => {
                  const item = { ...k, state: keyState(k), traffic: traffic?.keys.get(k.name) };
                  return { id: k.id, testId: `key-${k.name}`, cells: columns.map((c) => c.cell(item)) };
                })}
              />
            )}
            <Pager
              path={path}
              state={state}
              page={page.page}
              pages={page.pages}
              total={page.total}
              noun="keys"
            />
          </>
        )}
      </div>
      {tenant.can.edit && rotatable.length > 0 && (
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
              rotatable.length <= ROTATE_CHOICES
                ? { name: "name", label: "Key", type: "select", options: rotatable }
                : { name: "name", label: "Key name", type: "text" },
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
