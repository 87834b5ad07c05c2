import type { ReactNode } from "react";
import { ConfirmButton } from "@/components/forms/confirm-button";
import { revokeKeyAction } from "@/app/(dashboard)/_actions/key-actions";
import { formatDate } from "@/app/(dashboard)/_lib/load";
import type { ServerColumn } from "@/components/lists/server-sorted-table";
import { keyTrafficColumns, type KeyTrafficItem } from "@/components/usage/key-traffic-cells";
import type { KeySummary } from "@/lib/control/data/api-keys";
import { KEY_SORTS } from "@/lib/control/lists/key-list-query";
import type { RangeId } from "@/lib/usage/ranges";

// The keys list's columns (sorted on the server: every one but the trend and the actions)
// and each row's cells, the traffic cells shared with the usage views.

export interface KeyItem extends KeySummary, KeyTrafficItem {
  state: string;
}

interface Column {
  head: ServerColumn;
  cell: (k: KeyItem) => ReactNode;
}

const sortable = (id: string): ServerColumn["first"] | undefined =>
  id in KEY_SORTS ? KEY_SORTS[id as keyof typeof KEY_SORTS] : undefined;

export function keyListColumns(tenant: string, range: RangeId, canEdit: boolean, zone: string): Column[] {
  const plain = (id: keyof typeof KEY_SORTS, label: string, cell: Column["cell"]): Column => ({
    head: { id, label, first: KEY_SORTS[id] },
    cell,
  });
  const columns: Column[] = [
    plain("name", "Name", (k) => <span className="mono">{k.name}</span>),
    plain("prefix", "Prefix", (k) => <span className="mono">{k.prefix}…</span>),
    plain("state", "State", (k) => (
      <>
        <span className={`badge ${k.state === "active" ? "badge-ok" : "badge-danger"}`}>{k.state}</span>
        {/* a rotation's old secret still in its grace period */}
        {k.state === "active" && k.previousUntil && k.previousUntil.getTime() > Date.now() ? (
          <span className="muted small" data-testid="key-previous">
            {" "}
            old secret {k.previousPrefix}… works until {formatDate(k.previousUntil, zone)}
          </span>
        ) : null}
      </>
    )),
    plain("created", "Created", (k) => formatDate(k.createdAt, zone)),
    plain("expires", "Expires", (k) => (k.expiresAt ? formatDate(k.expiresAt, zone) : "never")),
    plain("used", "Last used", (k) => (k.lastUsedAt ? formatDate(k.lastUsedAt, zone) : "never")),
    ...keyTrafficColumns(tenant, range).map((def): Column => {
      const first = sortable(def.id);
      return {
        head: first
          ? { id: def.id, label: def.label, first, align: "right" }
          : { id: def.id, label: def.label, first: "desc", sortable: false },
        cell: def.cell,
      };
    }),
  ];
  if (!canEdit) return columns;
  return [
    ...columns,
    {
      head: { id: "actions", label: "Actions", first: "asc", sortable: false },
      cell: (k) =>
        k.state !== "revoked" ? (
          <ConfirmButton
            label="Revoke"
            confirmLabel="Revoke key"
            question={`Revoke ${k.name}? Checks with it are refused at once; this cannot be undone.`}
            action={revokeKeyAction.bind(null, { tenant, name: k.name })}
          />
        ) : null,
    },
  ];
}
