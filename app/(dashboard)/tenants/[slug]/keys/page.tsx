import type { Metadata } from "next";
import { requireUser } from "@/lib/auth/session";
import { listApiKeys } from "@/lib/data/api-keys";
import { tenantDetail } from "@/lib/data/queries/tenant-detail";
import { SimpleForm } from "@/components/forms/simple-form";
import { ConfirmButton } from "@/components/forms/confirm-button";
import { createKeyAction, revokeKeyAction } from "@/app/(dashboard)/_actions/key-actions";
import { formatDate, orNotFound } from "@/app/(dashboard)/_lib/load";
import { keysTraffic, type KeysTraffic } from "@/lib/usage/key-traffic";
import { isRangeId, RANGES } from "@/lib/usage/ranges";
import { RangePicker } from "@/components/usage/range-picker";
import { KeyTrafficCells } from "@/components/usage/key-traffic-cells";

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
          <table data-testid="keys-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">State</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">Checks</th>
                <th scope="col">Rejected</th>
                <th scope="col">Rate</th>
                <th scope="col">Trend</th>
                {tenant.can.edit && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => {
                const state = keyState(k);
                return (
                  <tr key={k.id} data-testid={`key-${k.name}`}>
                    <th scope="row" className="mono">
                      {k.name}
                    </th>
                    <td className="mono">{k.prefix}…</td>
                    <td>
                      <span className={`badge ${state === "active" ? "badge-ok" : "badge-danger"}`}>
                        {state}
                      </span>
                    </td>
                    <td>{formatDate(k.createdAt)}</td>
                    <td>{k.expiresAt ? formatDate(k.expiresAt) : "never"}</td>
                    <td>{k.lastUsedAt ? formatDate(k.lastUsedAt) : "never"}</td>
                    <KeyTrafficCells
                      tenant={slug}
                      name={k.name}
                      traffic={traffic?.keys.get(k.name)}
                      range={range}
                    />
                    {tenant.can.edit && (
                      <td>
                        {state !== "revoked" && (
                          <ConfirmButton
                            label="Revoke"
                            confirmLabel="Revoke key"
                            question={`Revoke ${k.name}? Checks with it are refused at once; this cannot be undone.`}
                            action={revokeKeyAction.bind(null, { tenant: slug, name: k.name })}
                          />
                        )}
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
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
