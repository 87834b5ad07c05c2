// Route patterns as declared in config ("POST /v1/search", "GET /v1/items/:id",
// "* /v1/reports/*", "* /action/read*"). Parsing is strict so that one pattern has one spelling: a pattern
// that would be ambiguous or silently never match is an error the author can fix.

export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
export type PatternMethod = HttpMethod | "*";

export type PatternSegment =
  | { kind: "literal"; value: string }
  | { kind: "param"; name: string }
  /** `read*`: one segment starting with `read` (envoy's trailing-wildcard values) */
  | { kind: "prefix"; value: string }
  /** a final `*`: one or more remaining segments */
  | { kind: "rest" };

export interface RoutePattern {
  /** the pattern exactly as declared; the identity used by `route:` fields and snapshots */
  text: string;
  method: PatternMethod;
  segments: PatternSegment[];
}

export type PatternParseResult = { ok: true; pattern: RoutePattern } | { ok: false; message: string };

const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Characters that mean something else in a URL or in our syntax have no place in a literal.
const LITERAL_FORBIDDEN = /[\s?#*:]/;

export function parseRoutePattern(text: string): PatternParseResult {
  const fail = (why: string): PatternParseResult => ({
    ok: false,
    message: `route pattern "${text}" does not parse: ${why}`,
  });
  const space = text.indexOf(" ");
  if (space < 0) return fail('write it as "METHOD /path", e.g. "GET /v1/items/:id"');
  const method = text.slice(0, space);
  const path = text.slice(space + 1);
  if (method !== "*" && !(HTTP_METHODS as readonly string[]).includes(method)) {
    return fail(`the method must be one of ${HTTP_METHODS.join(", ")} or *`);
  }
  if (!path.startsWith("/")) return fail('the path must start with "/"');
  if (path.length > 1 && path.endsWith("/")) {
    return fail('the path must not end with "/" (trailing slashes are ignored when matching)');
  }
  const segments: PatternSegment[] = [];
  const params = new Set<string>();
  const parts = path === "/" ? [] : path.slice(1).split("/");
  for (const [index, part] of parts.entries()) {
    if (part === "") return fail('the path must not contain an empty segment ("//")');
    if (part === "*") {
      if (index !== parts.length - 1) return fail("* may only be the last segment");
      segments.push({ kind: "rest" });
    } else if (part.startsWith(":")) {
      const name = part.slice(1);
      if (!PARAM_NAME.test(name)) {
        return fail(`":${name}" is not a parameter name (letters, digits and _)`);
      }
      if (params.has(name)) return fail(`the parameter ":${name}" appears twice`);
      params.add(name);
      segments.push({ kind: "param", name });
    } else if (part.endsWith("*") && !LITERAL_FORBIDDEN.test(part.slice(0, -1))) {
      segments.push({ kind: "prefix", value: part.slice(0, -1) });
    } else if (LITERAL_FORBIDDEN.test(part)) {
      return fail(
        `the segment "${part}" holds a space, "?", "#", "*" or ":" (a prefix segment is "text*", one final *)`,
      );
    } else {
      segments.push({ kind: "literal", value: part });
    }
  }
  return { ok: true, pattern: { text, method: method as PatternMethod, segments } };
}

/**
 * What a pattern matches, independent of its parameter names: "GET /v1/:id" and
 * "GET /v1/:item" share a key, so declaring both in one scope is a duplicate.
 */
export function patternShapeKey(pattern: RoutePattern): string {
  const path = pattern.segments.map((segment) => `/${segmentShape(segment)}`).join("");
  return `${pattern.method} ${path || "/"}`;
}

function segmentShape(segment: PatternSegment): string {
  switch (segment.kind) {
    case "literal":
      return segment.value;
    case "prefix":
      return `${segment.value}*`;
    case "param":
      return ":";
    case "rest":
      return "*";
  }
}
