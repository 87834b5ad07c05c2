import Link from "next/link";
import type { EditScope, HierarchyRow } from "@/lib/control/limit-tree/limit-hierarchy";
import type { Capabilities } from "@/lib/control/data/queries/tenant-detail";
import { describeRule } from "@/components/limits/format-limit";
import { editorHref, scopeKey } from "@/components/limits/editor-href";
import { DeleteLimitButton, type DeleteLimitAction } from "@/components/limits/delete-limit-button";
import { UtilizationCell } from "@/components/limits/live-utilization";
import { EffectiveRuleCell } from "@/components/limits/effective-rule-cell";
import { ScrollArea } from "@/components/tables/scroll-area";

// One table of effective limits: each row's rule, the chain it came through (base first,
// then each override and the fields it set), what this level did to it and, when `owner`
// is given, its live counter now (live-utilization.tsx).

const STATE_LABEL = { own: "declared here", overridden: "overridden here", inherited: "inherited" } as const;

export function LimitHierarchyView({
  slug,
  rows,
  can,
  here,
  empty,
  deleteAction,
  owner,
}: {
  slug: string;
  rows: HierarchyRow[];
  can: Capabilities;
  /** the scope an "override" at this level is declared in */
  here: EditScope;
  empty: string;
  deleteAction: DeleteLimitAction;
  /** whose counters the "Now" column shows: "tenant" or a key's name; no column without */
  owner?: string;
}) {
  if (rows.length === 0) return <p className="empty">{empty}</p>;
  return (
    <ScrollArea>
      <table className="limits">
        <thead>
          <tr>
            <th scope="col" className="col-name">
              Limit
            </th>
            {owner !== undefined && (
              <th scope="col" className="col-now">
                Now
              </th>
            )}
            <th scope="col" className="col-rule">
              Effective rule
            </th>
            <th scope="col">Comes from (base → overrides)</th>
            <th scope="col" className="col-here">
              Here
            </th>
            {can.edit && (
              <th scope="col" className="actions">
                Actions
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const local = [...row.steps]
              .reverse()
              .find(
                (s) =>
                  sameScope(s.scope, here) || (here.kind === "tenant" && s.scope.kind === "tenant-route"),
              );
            const imposed = row.steps[0]?.level === "plan" || row.steps[0]?.scope.kind === "global-route";
            return (
              <tr
                key={`${row.name}@${row.route ?? ""}`}
                data-testid={`limit-${row.name}`}
                data-scope={local ? scopeKey(local.scope) : undefined}
                className={row.disabled ? "muted" : undefined}
              >
                <th scope="row" className="mono">
                  {row.name}
                </th>
                {owner !== undefined && (
                  <td className="col-now">
                    {row.disabled ? (
                      <span className="muted">—</span>
                    ) : (
                      <UtilizationCell
                        name={row.name}
                        route={row.route}
                        by={row.effective.by}
                        owner={owner}
                      />
                    )}
                  </td>
                )}
                <td>
                  {owner === undefined || row.disabled ? (
                    describeRule(row.effective)
                  ) : (
                    <EffectiveRuleCell
                      fields={row.effective}
                      name={row.name}
                      route={row.route}
                      owner={owner}
                    />
                  )}
                </td>
                <td>
                  <ol className="chain">
                    {row.steps.map((step, i) => (
                      <li key={i} className={`step step-${step.level}`}>
                        <span className="step-source">{step.source}</span>
                        <span className="muted"> sets {step.fields.join(", ") || "nothing"}</span>
                      </li>
                    ))}
                  </ol>
                </td>
                <td>
                  <span className={`badge state-${row.state}`}>{STATE_LABEL[row.state]}</span>
                </td>
                {can.edit && (
                  <td className="actions">
                    {local ? (
                      <>
                        <Link href={editorHref(slug, local.scope, row.name)}>Edit</Link>
                        <DeleteLimitButton
                          slug={slug}
                          scope={local.scope}
                          name={row.name}
                          reverts={row.state === "overridden"}
                          deleteAction={deleteAction}
                        />
                      </>
                    ) : can.operate || !imposed ? (
                      <Link href={editorHref(slug, here, row.name, true)}>Override</Link>
                    ) : (
                      <span
                        className="muted"
                        title="Set by the plan or a global route: only an operator can override it"
                      >
                        plan-imposed
                      </span>
                    )}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollArea>
  );
}

function sameScope(a: EditScope, b: EditScope): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
