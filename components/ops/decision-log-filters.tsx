import "@/components/styles/ops-tools.css";
import type { DecisionLogQuery } from "@/lib/control/ops/decision-log-query";

// The decision log's filters: a plain GET form, so a filtered view is a link to share, and
// the CSV download is the same query with format=csv.

const OUTCOME_LABELS: Record<string, string> = {
  allowed: "allowed",
  rejected: "denied",
  shadow_rejected: "denied in shadow",
  degraded: "degraded",
};

export function outcomeLabel(outcome: string): string {
  return OUTCOME_LABELS[outcome] ?? outcome;
}

export function DecisionLogFilters({
  action,
  keys,
  routes,
  reasons,
  values,
}: {
  action: string;
  keys: readonly string[];
  routes: readonly string[];
  reasons: readonly string[];
  values: Partial<DecisionLogQuery>;
}) {
  return (
    <form method="get" action={action} className="check-form" aria-label="Filter decisions">
      <input type="hidden" name="go" value="1" />
      <label>
        API key
        <select name="key" defaultValue={values.key ?? ""}>
          <option value="">any</option>
          {keys.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </label>
      <label>
        Route
        <input
          name="route"
          list="log-routes"
          placeholder="GET /v1/items/:id"
          defaultValue={values.route ?? ""}
        />
        <datalist id="log-routes">
          {routes.map((r) => (
            <option key={r} value={r} />
          ))}
        </datalist>
      </label>
      <label>
        Subject
        <input name="subject" placeholder="203.0.113.9 or a user id" defaultValue={values.subject ?? ""} />
      </label>
      <label>
        Decision
        <select name="outcome" defaultValue={values.outcome ?? ""}>
          <option value="">any</option>
          {Object.entries(OUTCOME_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Reason
        <select name="reason" defaultValue={values.reason ?? ""}>
          <option value="">any</option>
          {reasons.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </label>
      <label>
        Denied by (limit)
        <input name="deniedBy" placeholder="per-minute" defaultValue={values.deniedBy ?? ""} />
      </label>
      <label>
        Last minutes
        <input name="minutes" type="number" min={1} max={1440} defaultValue={values.minutes ?? ""} />
      </label>
      <button type="submit">Filter</button>
    </form>
  );
}
