// "Only on route": a choice among the declared routes rather than free text (a limit may
// only name a declared route). A value no longer declared stays selectable, marked, so
// opening an old limit does not silently change it.

export function RouteSelect({
  routes,
  value,
  onChange,
  error,
}: {
  routes: readonly string[];
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const known = value === "" || routes.includes(value);
  return (
    <div className="field">
      <label htmlFor="l-route">Only on route</label>
      <select id="l-route" value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={!!error}>
        <option value="">every route</option>
        {routes.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
        {!known && <option value={value}>{value} (not declared)</option>}
      </select>
      <small className="muted">optional; the limit then counts only checks on that route</small>
      {error && <small className="error">{error}</small>}
    </div>
  );
}
