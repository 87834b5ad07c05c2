import { KEY_STATES, type KeyListQuery } from "@/lib/control/lists/key-list-query";

// The keys list's search and state filter: a GET form, so the list's state stays in the
// address. The sort, range and page size carry over; a new search starts at page 1.

export function KeyListFilters({ path, query }: { path: string; query: KeyListQuery }) {
  return (
    <form method="get" action={path} className="list-search" role="search" data-testid="key-filters">
      <label>
        Find a key
        <input
          type="search"
          name="q"
          defaultValue={query.q}
          maxLength={100}
          placeholder="name or prefix"
          data-testid="key-search"
        />
      </label>
      <label>
        State
        <select name="state" defaultValue={query.state ?? ""} data-testid="key-state-filter">
          <option value="">any</option>
          {KEY_STATES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <input type="hidden" name="sort" value={query.sort} />
      <input type="hidden" name="dir" value={query.dir} />
      <input type="hidden" name="size" value={query.size} />
      {query.range !== "1h" && <input type="hidden" name="range" value={query.range} />}
      <button type="submit">Find</button>
    </form>
  );
}
