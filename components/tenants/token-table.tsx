import type { TokenRow } from "@/lib/data/queries/list-tokens";
import type { ActionResult } from "@/components/forms/action-result";
import { ConfirmButton } from "@/components/forms/confirm-button";

const fmt = (d: Date | null) => (d ? d.toISOString().replace("T", " ").slice(0, 16) : "never");

export function TokenTable({
  tokens,
  revoke,
  empty,
}: {
  tokens: TokenRow[];
  revoke: (input: { kind: "service" | "admin"; id: string }) => Promise<ActionResult<null>>;
  empty: string;
}) {
  if (tokens.length === 0) return <p className="empty">{empty}</p>;
  return (
    <table data-testid="tokens-table">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Kind</th>
          <th scope="col">Prefix</th>
          <th scope="col">Scope</th>
          <th scope="col">Created</th>
          <th scope="col">Last used</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {tokens.map((t) => (
          <tr key={`${t.kind}-${t.id}`}>
            <th scope="row">{t.name}</th>
            <td>{t.kind === "service" ? "service (/api/check)" : "admin API"}</td>
            <td className="mono">{t.prefix}…</td>
            <td>
              {t.kind === "service"
                ? t.tenants
                  ? t.tenants.join(", ")
                  : "all tenants"
                : t.tenants
                  ? `${t.tenants[0]} as ${t.role}`
                  : "operator"}
            </td>
            <td>{fmt(t.createdAt)}</td>
            <td>{fmt(t.lastUsedAt)}</td>
            <td>
              {t.revokedAt ? (
                <span className="badge badge-danger">revoked</span>
              ) : (
                <ConfirmButton
                  label="Revoke"
                  confirmLabel="Revoke token"
                  question={`Revoke ${t.name}? Calls with it fail at once.`}
                  action={revoke.bind(null, { kind: t.kind, id: t.id })}
                />
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
