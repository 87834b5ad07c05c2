// How usage records the route of a check: the matched pattern, "" when the check named no
// route, and UNMATCHED_ROUTE_MARK when it named one that matched no declared pattern. The
// mark cannot be a pattern ("METHOD /path"), so it never collides with a real route.

export const UNMATCHED_ROUTE_MARK = "?";

/** The text the dashboard shows for a recorded route. */
export function routeLabel(route: string): string {
  if (route === "") return "(no route)";
  if (route === UNMATCHED_ROUTE_MARK) return "(unmatched route)";
  return route;
}
