import type { RangeId } from "@/lib/usage/ranges";

// URLs of the usage views: /usage (every tenant) and /usage/<tenant>?key=&route=&range=.

export interface UsageView {
  tenant: string | null;
  key: string | null;
  route: string | null;
  range: RangeId;
}

export function usageHref(view: UsageView): string {
  const params = new URLSearchParams();
  if (view.key) params.set("key", view.key);
  if (view.route) params.set("route", view.route);
  if (view.range !== "15m") params.set("range", view.range);
  const query = params.toString();
  const path = view.tenant ? `/usage/${encodeURIComponent(view.tenant)}` : "/usage";
  return query ? `${path}?${query}` : path;
}

/** The query string of /api/usage-live for a view. */
export function liveQuery(view: UsageView): string {
  const params = new URLSearchParams({ range: view.range });
  if (view.tenant) params.set("tenant", view.tenant);
  if (view.key) params.set("key", view.key);
  if (view.route) params.set("route", view.route);
  return params.toString();
}
