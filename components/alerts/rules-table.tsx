import type { RuleView } from "@/lib/control/data/alerts/rules";
import { AlertTable, DisableCell } from "@/components/alerts/alert-table";
import { ruleCondition } from "@/components/alerts/rule-condition";
import type { ActionResult } from "@/components/forms/action-result";

// Alert rules, each with its condition in words and whether it is firing now.

const COLUMNS = ["Name", "Condition", "Endpoint", "State"];

function state(r: RuleView): [string, string] {
  if (r.disabledAt) return ["disabled", "badge"];
  return r.firing ? ["firing", "badge-danger"] : ["ok", "badge-ok"];
}

export function RulesTable({
  slug,
  rules,
  canEdit,
  disable,
}: {
  slug: string;
  rules: RuleView[];
  canEdit: boolean;
  /** the page's server action */
  disable: (input: { tenant: string; id: string }) => Promise<ActionResult<unknown>>;
}) {
  if (rules.length === 0) return <p className="empty">No rules yet.</p>;
  return (
    <AlertTable testId="alert-rules" columns={COLUMNS} actions={canEdit}>
      {rules.map((r) => {
        const [label, badge] = state(r);
        return (
          <tr key={r.id} data-testid={`rule-${r.name}`}>
            <th scope="row" className="mono">
              {r.name}
            </th>
            <td>{ruleCondition(r)}</td>
            <td className="mono">{r.endpoint}</td>
            <td>
              <span className={`badge ${badge}`}>{label}</span>
            </td>
            {canEdit && (
              <DisableCell
                disabled={r.disabledAt !== null}
                confirmLabel="Disable rule"
                question={`Disable ${r.name}? A firing alert of it is resolved.`}
                action={disable.bind(null, { tenant: slug, id: r.id })}
              />
            )}
          </tr>
        );
      })}
    </AlertTable>
  );
}
