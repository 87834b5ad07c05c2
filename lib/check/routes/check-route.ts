// The route of a check ("GET /v1/items/42?x=1") split for matching. Lenient where the
// pattern side is strict: a check comes from running services, and a stray trailing slash
// or lower-case method should still find its route.

export interface CheckRoute {
  method: string;
  /** path segments without empty ones: "/v1/items/" and "/v1//items" both give [v1, items] */
  segments: string[];
}

/** null when the text is not "METHOD /path" at all (callers treat that as "no route"). */
export function parseCheckRoute(route: string): CheckRoute | null {
  const space = route.indexOf(" ");
  if (space <= 0) return null;
  const method = route.slice(0, space).toUpperCase();
  let path = route.slice(space + 1);
  if (!path.startsWith("/")) return null;
  // The query string and fragment never take part in matching.
  const cut = path.search(/[?#]/);
  if (cut >= 0) path = path.slice(0, cut);
  const segments = path.split("/").filter((segment) => segment !== "");
  return { method, segments };
}
