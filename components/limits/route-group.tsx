import type { ReactNode } from "react";

// One route's limits, folded: a tenant page repeated every global route as a full table
// (thousands of pixels); now a route shows one line until opened, and the route filter
// (route-filter.tsx) finds it by pattern.

export function RouteGroup({
  route,
  count,
  open,
  children,
}: {
  route: string;
  count: number;
  /** open when something here is this level's own (declared or overridden) */
  open: boolean;
  children: ReactNode;
}) {
  return (
    <details className="group route-group" open={open} data-route-group={route}>
      <summary>
        <h3>
          Route <code>{route}</code>
        </h3>
        <span className="muted">
          {count} limit{count === 1 ? "" : "s"}
        </span>
      </summary>
      {children}
    </details>
  );
}
