import { FIELDS, type FormValues } from "@/components/limits/limit-form-values";

// Before Save: each field the form changes, as current -> proposed, so what a save will do
// is read before it is done (a new limit lists every field it sets).

const LABEL: Record<(typeof FIELDS)[number], string> = {
  name: "name",
  by: "counted per",
  route: "only on route",
  algorithm: "algorithm",
  limit: "limit",
  window: "window",
  period: "calendar period",
  timeZone: "time zone",
  burst: "burst",
  action: "when over",
  maxDelay: "longest delay",
  mode: "mode",
  onStoreFailure: "if Redis is unreachable",
  consistency: "consistency",
  syncEvery: "sync every",
  penaltyBlock: "penalty block",
  penaltyGrow: "penalty growth",
  penaltyMax: "longest penalty",
  penaltyWindow: "penalty growth window",
};

export function ProposedChange({
  current,
  proposed,
  isNew,
}: {
  current: FormValues;
  proposed: FormValues;
  isNew: boolean;
}) {
  const changed = FIELDS.filter((f) => current[f].trim() !== proposed[f].trim());
  const shown = (text: string, inherits: boolean) =>
    text.trim() === "" ? <em className="muted">{inherits ? "inherited" : "unset"}</em> : <code>{text}</code>;
  return (
    <div className="proposed-change" data-testid="proposed-change" aria-live="polite">
      <h3>{isNew ? "This save adds" : "This save changes"}</h3>
      {changed.length === 0 ? (
        <p className="muted">Nothing yet: the form holds the saved values.</p>
      ) : (
        <table className="value-diff">
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Now</th>
              <th scope="col" aria-label="becomes" />
              <th scope="col">After save</th>
            </tr>
          </thead>
          <tbody>
            {changed.map((f) => (
              <tr key={f} data-testid={`proposed-${f}`}>
                <th scope="row">{LABEL[f]}</th>
                <td className="diff-del-cell">
                  {isNew ? <em className="muted">new</em> : shown(current[f], f !== "name")}
                </td>
                <td aria-hidden="true">→</td>
                <td className="diff-add-cell">{shown(proposed[f], f !== "name")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
