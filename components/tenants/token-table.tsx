import type { TokenRow } from "@/lib/control/data/queries/list-tokens";
import type { ActionResult } from "@/components/forms/action-result";
import { ConfirmButton } from "@/components/forms/confirm-button";
import { SortableTable } from "@/components/tables/sortable-table";
import { formatDate } from "@/lib/shared/format-date";

const fmt = (d: Date | null) => (d ? formatDate(d) : "never");

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
  const scope = (t: TokenRow): string =>
    t.kind === "service"
      ? t.tenants
        ? t.tenants.join(", ")
        : "all tenants"
      : t.tenants
        ? `${t.tenants[0]} as ${t.role}`
        : "operator";
  return (
    <SortableTable
      testId="tokens-table"
      columns={[
        { id: "name", label: "Name", rowHeader: true },
        { id: "kind", label: "Kind" },
        { id: "prefix", label: "Prefix", className: "mono" },
        { id: "scope", label: "Scope" },
        { id: "created", label: "Created" },
        { id: "used", label: "Last used" },
        { id: "actions", label: "Actions", sortable: false },
      ]}
      rows={tokens.map((t) => ({
        id: `${t.kind}-${t.id}`,
        sort: {
          name: t.name,
          kind: t.kind,
          prefix: t.prefix,
          scope: scope(t),
          created: t.createdAt.getTime(),
          used: t.lastUsedAt?.getTime() ?? 0,
        },
        cells: [
          t.name,
          t.kind === "service" ? "service (/api/check)" : "admin API",
          `${t.prefix}…`,
          t.capped ? (
            <span key="scope">
              {scope(t)} <span className="badge state-overridden">{t.capped}</span>
            </span>
          ) : (
            scope(t)
          ),
          fmt(t.createdAt),
          fmt(t.lastUsedAt),
          t.revokedAt ? (
            <span key="revoked" className="badge badge-danger" data-testid="token-standing">
              {t.revokedReason ? `revoked: ${t.revokedReason}` : "revoked"}
            </span>
          ) : t.ineffective ? (
            <span key="ineffective" className="badge badge-danger" data-testid="token-standing">
              {`ineffective: ${t.ineffective}`}
            </span>
          ) : (
            <ConfirmButton
              key="revoke"
              label="Revoke"
              confirmLabel="Revoke token"
              question={`Revoke ${t.name}? Calls with it fail at once.`}
              action={revoke.bind(null, { kind: t.kind, id: t.id })}
            />
          ),
        ],
      }))}
    />
  );
}
