import type { RangeId } from "@/lib/usage/ranges";
import { urlTime, type CustomWindow } from "@/lib/usage/read/custom-window";

// URLs of the usage views: /usage (every tenant) and /usage/<tenant>?key=&route=&range=,
// plus from=&to= for a custom (zoomed) range, which drill-down links keep.

export interface UsageView {
  tenant: string | null;
  key: string | null;
  route: string | null;
  range: RangeId;
  /** a custom range; absent or null: the preset range */
  window?: CustomWindow | null;
  /** also show the previous period of the same length (compare=1) */
  compare?: boolean;
}

function windowParams(params: URLSearchParams, window: CustomWindow | null | undefined): void {
  if (!window) return;
  params.set("from", urlTime(window.from));
  params.set("to", urlTime(window.to));
}

export function usageHref(view: UsageView): string {
  const params = new URLSearchParams();
  if (view.key) params.set("key", view.key);
  if (view.route) params.set("route", view.route);
  if (view.range !== "15m") params.set("range", view.range);
  windowParams(params, view.window);
  if (view.compare) params.set("compare", "1");
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
  windowParams(params, view.window);
  if (view.compare) params.set("compare", "1");
  return params.toString();
}
