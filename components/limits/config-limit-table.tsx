import Link from "next/link";
import { normalizeLimit } from "@/lib/control/config/document";
import type { EditScope } from "@/lib/control/limit-tree/limit-hierarchy";
import { describeRule } from "@/components/limits/format-limit";
import { editorHref, scopeKey } from "@/components/limits/editor-href";
import { DeleteLimitButton, type DeleteLimitAction } from "@/components/limits/delete-limit-button";
import { SortableTable } from "@/components/tables/sortable-table";

// The limits a plan or a global route declares, as on /plans: sortable by name, by rate
// (limit per second, so "100 / 1s" sorts above "1,000 / 1m"; disabled ones count as 0).

type LimitDoc = Parameters<typeof normalizeLimit>[0] & { name: string };

export function ConfigLimitTable({
  scope,
  limits,
  deleteAction,
}: {
  scope: Extract<EditScope, { kind: "plan" } | { kind: "global-route" }>;
  limits: LimitDoc[];
  deleteAction: DeleteLimitAction;
}) {
  if (limits.length === 0) return <p className="empty">No limits.</p>;
  return (
    <div data-scope={scopeKey(scope)}>
      <SortableTable
        className="limits"
        columns={[
          { id: "name", label: "Limit", rowHeader: true, className: "mono col-name" },
          { id: "rate", label: "Rule", className: "col-rule" },
          { id: "actions", label: "Actions", sortable: false, className: "actions" },
        ]}
        rows={limits.map((l) => {
          const fields = normalizeLimit(l);
          const rate =
            fields.disabled || fields.limit === undefined || !fields.windowMs
              ? 0
              : (fields.limit * 1_000) / fields.windowMs;
          return {
            id: l.name,
            testId: `limit-${l.name}`,
            sort: { name: l.name, rate },
            cells: [
              l.name,
              describeRule(fields),
              <>
                <Link href={editorHref("", scope, l.name)}>Edit</Link>
                <DeleteLimitButton
                  slug=""
                  scope={scope}
                  name={l.name}
                  reverts={false}
                  deleteAction={deleteAction}
                />
              </>,
            ],
          };
        })}
      />
    </div>
  );
}
