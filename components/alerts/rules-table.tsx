import type { RuleView } from "@/lib/data/alerts/rules";
import { ConfirmButton } from "@/components/forms/confirm-button";
import { ruleCondition } from "@/components/alerts/rule-condition";
import { disableRuleAction } from "@/app/(dashboard)/_actions/alert-actions";

// Alert rules, each with its condition in words and whether it is firing now.

function state(r: RuleView): [string, string] {
  if (r.disabledAt) return ["disabled", "badge"];
  return r.firing ? ["firing", "badge-danger"] : ["ok", "badge-ok"];
}

export function RulesTable({ slug, rules, canEdit }: { slug: string; rules: RuleView[]; canEdit: boolean }) {
  if (rules.length === 0) return <p className="empty">No rules yet.</p>;
  return (
    <div className="table-scroll">
      <table data-testid="alert-rules">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Condition</th>
            <th scope="col">Endpoint</th>
            <th scope="col">State</th>
            {canEdit && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
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
                  <td>
                    {!r.disabledAt && (
                      <ConfirmButton
                        label="Disable"
                        confirmLabel="Disable rule"
                        question={`Disable ${r.name}? A firing alert of it is resolved.`}
                        action={disableRuleAction.bind(null, { tenant: slug, id: r.id })}
                      />
                    )}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
