import "@/components/styles/ops-tools.css";
// The check an ops tool looks at: a key (or none), a route (a declared pattern or a real
// path), a subject and, for the simulator, a cost. A plain GET form: the answer is the page.

export interface CheckValues {
  key?: string;
  route?: string;
  subject?: string;
  cost?: number;
}

export function CheckForm({
  action,
  keys,
  routes,
  values,
  withCost,
  submitLabel,
}: {
  action: string;
  keys: readonly string[];
  routes: readonly string[];
  values: CheckValues;
  withCost: boolean;
  submitLabel: string;
}) {
  return (
    <form method="get" action={action} className="check-form" aria-label="Check">
      <input type="hidden" name="go" value="1" />
      <label>
        API key
        <select name="key" defaultValue={values.key ?? ""}>
          <option value="">(no key: key limits skipped)</option>
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
          list="check-routes"
          placeholder="GET /v1/items/42"
          defaultValue={values.route ?? ""}
          className="mono"
        />
        <datalist id="check-routes">
          {routes.map((r) => (
            <option key={r} value={r} />
          ))}
        </datalist>
      </label>
      <label>
        Subject
        <input name="subject" placeholder="203.0.113.9 or a user id" defaultValue={values.subject ?? ""} />
      </label>
      {withCost && (
        <label>
          Cost
          <input name="cost" type="number" min={1} max={1000000} defaultValue={values.cost ?? 1} />
        </label>
      )}
      <div className="form-actions">
        <button type="submit">{submitLabel}</button>
      </div>
    </form>
  );
}

export function ParamErrors({ errors }: { errors: readonly { path: string; message: string }[] }) {
  return (
    <div role="alert" className="error">
      <ul>
        {errors.map((e, i) => (
          <li key={i}>
            <code>{e.path}</code>: {e.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
