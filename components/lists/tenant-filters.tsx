import type { TenantListQuery } from "@/lib/control/lists/tenant-list-query";

// The tenants list's search and filters: a GET form, so the list's state stays in the
// address. The sort and page size carry over; a new search starts at page 1.

export function TenantFilters({
  path,
  query,
  plans,
}: {
  path: string;
  query: TenantListQuery;
  plans: string[];
}) {
  return (
    <form method="get" action={path} className="list-search" role="search" data-testid="tenant-filters">
      <label>
        Search
        <input
          type="search"
          name="q"
          defaultValue={query.q}
          maxLength={100}
          placeholder="slug or name"
          data-testid="tenant-search"
        />
      </label>
      {plans.length > 0 && (
        <label>
          Plan
          <select name="plan" defaultValue={query.plan ?? ""} data-testid="tenant-plan-filter">
            <option value="">any</option>
            {plans.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        Status
        <select name="status" defaultValue={query.status ?? ""} data-testid="tenant-status-filter">
          <option value="">any</option>
          <option value="active">active</option>
          <option value="suspended">suspended</option>
        </select>
      </label>
      <input type="hidden" name="sort" value={query.sort} />
      <input type="hidden" name="dir" value={query.dir} />
      <input type="hidden" name="size" value={query.size} />
      <button type="submit">Search</button>
    </form>
  );
}
