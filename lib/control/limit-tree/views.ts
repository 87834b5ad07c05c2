import "server-only";
import { NotFoundError } from "@/lib/control/errors/errors";
import {
  headNodes,
  keyNode,
  keyRouteNode,
  routeNode,
  subjectsNode,
  type TreeInputs,
} from "@/lib/control/limit-tree/nodes";
import type { KeyShape } from "@/lib/control/limit-tree/shape";
import type { LimitTreeData, TreeNode } from "@/lib/control/limit-tree/types";

// The three views of the tree: the tenant (its routes, its most utilized keys, each with
// the routes where its checks are denied, subjects), one key (its routes and subject limits),
// one route (the keys that use it most). Rows read as the chain a check meets: plan ->
// tenant -> key -> route; a tenant-wide route limit sits under the tenant, beside the keys.

/** keys drawn in the tenant and route views; the rest are counted, not drawn */
export const KEYS_SHOWN = 12;

/** routes drawn under a key in the tenant view: those that denied its checks or bind it */
export const ROUTES_UNDER_KEY = 3;

export interface ViewResult {
  nodes: TreeNode[];
  keys: LimitTreeData["keys"];
}

const hotter = (a: TreeNode, b: TreeNode): number =>
  (b.utilization ?? 0) - (a.utilization ?? 0) || b.rejected - a.rejected || a.label.localeCompare(b.label);

function hidden(all: readonly TreeNode[], total: number): LimitTreeData["keys"] {
  const rest = all.slice(KEYS_SHOWN);
  return {
    total,
    hidden: rest.length,
    hiddenMaxUtilization: Math.max(0, ...rest.map((n) => n.utilization ?? 0)),
  };
}

/** A key's routes whose limits denied its checks in the range, or whose limit binds it. */
function routesUnder(inputs: TreeInputs, key: KeyShape, keyRow: TreeNode): TreeNode[] {
  const denied = (pattern: string) => inputs.attributed.byKeyRoute.get(`${key.id} ${pattern}`) ?? 0;
  return [...key.routed.keys()]
    .filter((p) => denied(p) > 0 || keyRow.binding?.route === p)
    .sort((a, b) => denied(b) - denied(a) || a.localeCompare(b))
    .slice(0, ROUTES_UNDER_KEY)
    .map((pattern) => keyRouteNode(inputs, key, pattern, 3, { route: pattern }));
}

export function tenantView(inputs: TreeInputs): ViewResult {
  const routes = [...inputs.shape.routes.keys()].sort().map((pattern) => routeNode(inputs, pattern, 2));
  const keys = inputs.shape.keys
    .map((shape) => ({ shape, row: keyNode(inputs, shape, 2) }))
    .sort((a, b) => hotter(a.row, b.row));
  const drawn = keys.slice(0, KEYS_SHOWN).flatMap((k) => [k.row, ...routesUnder(inputs, k.shape, k.row)]);
  const subjects = subjectsNode(inputs, inputs.shape.subjects, 2, null);
  return {
    nodes: [...headNodes(inputs), ...routes, ...drawn, ...(subjects ? [subjects] : [])],
    keys: hidden(
      keys.map((k) => k.row),
      inputs.shape.keys.length,
    ),
  };
}

export function keyView(inputs: TreeInputs, key: KeyShape): ViewResult {
  const routes = [...key.routed.keys()]
    .sort()
    .map((pattern) => keyRouteNode(inputs, key, pattern, 3, { route: pattern }));
  const subjectLimits = [...key.unrouted, ...[...key.routed.values()].flat()];
  const subjects = subjectsNode(inputs, subjectLimits, 3, key);
  return {
    nodes: [...headNodes(inputs), keyNode(inputs, key, 2), ...routes, ...(subjects ? [subjects] : [])],
    // one key is the subject here: the others are not "hidden"
    keys: { total: inputs.shape.keys.length, hidden: 0, hiddenMaxUtilization: 0 },
  };
}

/** `uses`: checks per key id on this route in the range, the busiest first. */
export function routeView(
  inputs: TreeInputs,
  pattern: string,
  uses: ReadonlyMap<string, number>,
): ViewResult {
  const known =
    inputs.tenant.routes.includes(pattern) ||
    inputs.shape.routes.has(pattern) ||
    inputs.shape.keys.some((k) => k.routed.has(pattern));
  if (!known) throw new NotFoundError(`Tenant ${inputs.tenant.slug} has no route ${pattern}.`);
  const byId = new Map(inputs.shape.keys.map((k) => [k.id, k]));
  const users = [...uses.entries()].sort((a, b) => b[1] - a[1]).flatMap(([id]) => byId.get(id) ?? []);
  const nodes = users.map((k) => keyRouteNode(inputs, k, pattern, 3, { key: k.name }));
  return {
    nodes: [...headNodes(inputs), routeNode(inputs, pattern, 2), ...nodes.slice(0, KEYS_SHOWN)],
    keys: hidden(nodes, inputs.shape.keys.length),
  };
}
