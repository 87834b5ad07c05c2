// Resolves a check's route to the single most specific declared pattern of one set. A
// check resolves twice, once among the global routes and once among the tenant's own
// (lib/config/compile/effective-limits.ts), and the limits of both apply: a tenant's
// pattern never hides a global one. It runs for every distinct check, so patterns are
// precompiled into a segment trie: matching walks the path once, trying literal, then
// prefix (longest first), then :param, then * at each segment, and the first complete match
// is the most specific one (backtracking happens only where a branch dead-ends). A node
// without prefix children pays one null check for them.
//
// Ranking, most important first:
//   1. path, segment by segment from the left: literal > prefix (`read*`; the longer prefix
//      first) > :param > * (docs/configuration.md);
//   2. method: a literal method beats "*" (a user reads "GET /v1/items/:id" as more about
//      the request than "* /v1/items/:id", but never lets the method outweigh the path:
//      "* /v1/items/new" beats "GET /v1/items/:id" for GET /v1/items/new);
//   3. scope (only when one matcher is given both sets, which resolution no longer does):
//      at equal path and method rank, the tenant's own route beats a global one.
// `*` matches one or more remaining segments: "GET /files/*" does not match "GET /files".

import { parseRoutePattern, type PatternMethod } from "./route-pattern";

export type RouteScope = "global" | "tenant";

interface Terminal {
  /** method -> pattern text; "*" holds the any-method pattern */
  byMethod: Map<PatternMethod, { text: string; scope: RouteScope }>;
}

interface TrieNode {
  literal: Map<string, TrieNode>;
  /** the same children while they are few (SMALL): compared in place, no segment string */
  few: [string, TrieNode][] | null;
  /** prefix segments ("read*"), longest prefix first; null while there are none */
  prefixes: [string, TrieNode][] | null;
  param: TrieNode | null;
  /** patterns ending in "*" below this node */
  rest: Terminal | null;
  /** patterns ending exactly at this node */
  end: Terminal | null;
}

export interface RouteMatcher {
  /** The pattern text for a check route like "GET /v1/items/42?x=1", or null. */
  match(route: string): string | null;
}

const newNode = (): TrieNode => ({
  literal: new Map(),
  few: [],
  prefixes: null,
  param: null,
  rest: null,
  end: null,
});

/** Up to this many literal children are compared in place; more are looked up by segment. */
const SMALL = 8;

function place(terminal: Terminal | null, method: PatternMethod, text: string, scope: RouteScope): Terminal {
  const target = terminal ?? { byMethod: new Map() };
  const existing = target.byMethod.get(method);
  // Same shape declared twice: tenant beats global; within one scope the first stays
  // (validation already reports such duplicates).
  if (!existing || (existing.scope === "global" && scope === "tenant")) {
    target.byMethod.set(method, { text, scope });
  }
  return target;
}

function insert(root: TrieNode, text: string, scope: RouteScope): void {
  const parsed = parseRoutePattern(text);
  if (!parsed.ok) throw new Error(parsed.message);
  const { method, segments } = parsed.pattern;
  let node = root;
  for (const segment of segments) {
    if (segment.kind === "rest") {
      node.rest = place(node.rest, method, text, scope);
      return;
    }
    if (segment.kind === "param") {
      node.param ??= newNode();
      node = node.param;
    } else if (segment.kind === "prefix") {
      node = prefixChild(node, segment.value);
    } else {
      let child = node.literal.get(segment.value);
      if (!child) {
        node.literal.set(segment.value, (child = newNode()));
        node.few = node.literal.size > SMALL ? null : [...node.literal];
      }
      node = child;
    }
  }
  node.end = place(node.end, method, text, scope);
}

/** The child for prefix `value`, made if new; the list stays sorted longest prefix first. */
function prefixChild(node: TrieNode, value: string): TrieNode {
  const list = (node.prefixes ??= []);
  const existing = list.find(([prefix]) => prefix === value);
  if (existing) return existing[1];
  const child = newNode();
  list.push([value, child]);
  list.sort((a, b) => b[0].length - a[0].length);
  return child;
}

function pick(terminal: Terminal | null, method: string): string | null {
  if (!terminal) return null;
  const exact = terminal.byMethod.get(method as PatternMethod);
  if (exact) return exact.text;
  return terminal.byMethod.get("*")?.text ?? null;
}

/**
 * The first complete match below `node` for the path between `pos` and `end` of the check's
 * route text: segments are read in place (parseCheckRoute's rules: empty segments skipped),
 * so a check allocates only the segment strings it looks up among literals.
 */
function walk(node: TrieNode, route: string, pos: number, end: number, method: string): string | null {
  while (pos < end && route.charCodeAt(pos) === SLASH) pos++;
  if (pos === end) return pick(node.end, method);
  let next = route.indexOf("/", pos);
  if (next < 0 || next > end) next = end;
  if (node.literal.size > 0) {
    const literal = literalChild(node, route, pos, next);
    if (literal) {
      const found = walk(literal, route, next, end, method);
      if (found !== null) return found;
    }
  }
  if (node.prefixes !== null) {
    for (const [prefix, child] of node.prefixes) {
      // the segment is route[pos..next); `read*` matches `read` itself too, as envoy's does
      if (prefix.length > next - pos || !route.startsWith(prefix, pos)) continue;
      const found = walk(child, route, next, end, method);
      if (found !== null) return found;
    }
  }
  if (node.param) {
    const found = walk(node.param, route, next, end, method);
    if (found !== null) return found;
  }
  // a segment is left here, so a rest pattern always has at least one segment to take
  return pick(node.rest, method);
}

/** The literal child named by route[pos..next), or undefined. */
function literalChild(node: TrieNode, route: string, pos: number, next: number): TrieNode | undefined {
  const { few } = node;
  if (few === null) return node.literal.get(route.slice(pos, next));
  const length = next - pos;
  for (const [name, child] of few) if (name.length === length && route.startsWith(name, pos)) return child;
  return undefined;
}

const SLASH = 47;
const [UPPER_A, UPPER_Z] = [65, 90];

/** parseCheckRoute's method: upper-cased, without a copy when it already is (nearly always). */
function methodOf(route: string, space: number): string {
  for (let i = 0; i < space; i++) {
    const c = route.charCodeAt(i);
    if (c < UPPER_A || c > UPPER_Z) return route.slice(0, space).toUpperCase();
  }
  return route.slice(0, space);
}

/** The pattern a check route matches, read in place (parseCheckRoute splits; this must agree). */
function matchText(root: TrieNode, route: string): string | null {
  const space = route.indexOf(" ");
  if (space <= 0 || route.charCodeAt(space + 1) !== SLASH) return null;
  // the query string and fragment never take part in matching
  const query = route.indexOf("?", space);
  const fragment = route.indexOf("#", space);
  let end = query < 0 ? route.length : query;
  if (fragment >= 0 && fragment < end) end = fragment;
  return walk(root, route, space + 1, end, methodOf(route, space));
}

/** Patterns must be valid (validated documents only); an invalid one throws. */
export function createRouteMatcher(
  globalPatterns: readonly string[],
  tenantPatterns: readonly string[] = [],
): RouteMatcher {
  const root = newNode();
  for (const text of globalPatterns) insert(root, text, "global");
  for (const text of tenantPatterns) insert(root, text, "tenant");
  return {
    match: (route: string): string | null => matchText(root, route),
  };
}
