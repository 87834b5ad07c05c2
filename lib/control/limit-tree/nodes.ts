import "server-only";
import type { CompiledLimit, CompiledTenant } from "@/lib/control/config/compile";
import type { CounterRead } from "@/lib/control/limit-tree/limit-tree-counters";
import type { Attributed } from "@/lib/control/limit-tree/attribution";
import { bindingOf } from "@/lib/control/limit-tree/binds";
import {
  evaluated,
  levelOf,
  nodeUtilization,
  ownerNamed,
  readAll,
  readLimit,
  type Owners,
} from "@/lib/control/limit-tree/read-limit";
import type { KeyShape, PlacedLimit, TenantShape } from "@/lib/control/limit-tree/shape";
import type { Traffic } from "@/lib/control/limit-tree/traffic";
import type { LimitReading, TreeNode } from "@/lib/control/limit-tree/types";
import type { ListOutcome } from "@/lib/control/counters/list-outcome";

// The nodes of one view of the tree, from the tenant's shape, one counter read and the
// range's usage. Nothing here reads a store. A node's `rejected` are those its own limits
// denied (attribution.ts); `checksRejected` those of the checks through it.

export interface TreeInputs {
  tenant: CompiledTenant;
  shape: TenantShape;
  counters: CounterRead;
  /** the view's checks rejected, per node they went through */
  rejections: Traffic;
  /** the view's rejections by the limit that denied them */
  attributed: Attributed;
  /** every check admitted in the range, of every key: how fast each counter fills */
  admitted: Traffic;
  rangeMs: number;
  /** key id -> the routes it sent checks to in the range */
  routesOf: ReadonlyMap<string, ReadonlySet<string>>;
  /** the subjects whose counters were read: the most rejected in the range, with their rejections */
  subjects: { name: string; rejected: number }[];
  /** what the allow and deny lists answer a subject (list-outcome.ts) */
  listOf: (subject: string) => ListOutcome | null;
}

function owners(inputs: TreeInputs, key: KeyShape | null, subject: string | null = null): Owners {
  const { shape } = inputs;
  return {
    tenantId: shape.tenantId,
    tenant: { name: shape.owner, key: shape.ownerKey },
    key: key && { name: key.owner, key: key.ownerKey },
    subject: subject === null ? null : ownerNamed(shape.tenantId, `s.${subject}`),
  };
}

function node(
  partial: Omit<TreeNode, "utilization" | "binding" | "subjects" | "drill"> & Partial<TreeNode>,
): TreeNode {
  return {
    utilization: nodeUtilization(partial.limits),
    binding: null,
    subjects: null,
    drill: null,
    ...partial,
  };
}

export function headNodes(inputs: TreeInputs): TreeNode[] {
  const own = owners(inputs, null);
  const { total } = inputs.rejections;
  return [
    node({
      id: "plan",
      level: "plan",
      label: `plan ${inputs.tenant.plan}`,
      depth: 0,
      rejected: inputs.attributed.plan,
      checksRejected: total,
      limits: readAll(inputs.shape.plan, own, inputs.counters),
    }),
    node({
      id: "tenant",
      level: "tenant",
      label: `tenant ${inputs.tenant.slug}`,
      depth: 1,
      rejected: inputs.attributed.tenant,
      checksRejected: total,
      limits: readAll(inputs.shape.tenant, own, inputs.counters),
    }),
  ];
}

interface Read {
  placed: PlacedLimit;
  reading: LimitReading;
}

/** Every limit a check of this key meets on `routes` (none: its unrouted ones), read once. */
function readKey(inputs: TreeInputs, key: KeyShape, routes: readonly string[]): Read[] {
  const own = owners(inputs, key);
  const placed = [...key.unrouted, ...routes.flatMap((r) => key.routed.get(r) ?? [])];
  return placed.flatMap((p) => {
    const reading = readLimit(p, own, inputs.counters);
    return reading ? [{ placed: p, reading }] : [];
  });
}

/** Checks admitted per ms through the owner of `limit` for this key's checks, over the range. */
function rateOf(inputs: TreeInputs, limit: CompiledLimit, key: KeyShape): number {
  const { admitted } = inputs;
  const admittedChecks =
    limit.by === "key"
      ? limit.route === null
        ? admitted.byKey.get(key.id)
        : admitted.byKeyRoute.get(`${key.id} ${limit.route}`)
      : limit.route === null
        ? admitted.total
        : admitted.byRoute.get(limit.route);
  return (admittedChecks ?? 0) / Math.max(1, inputs.rangeMs);
}

/** What binds: the chain's limit with the least share left (binds.ts). */
function bindingOfReads(inputs: TreeInputs, key: KeyShape, reads: readonly Read[]): TreeNode["binding"] {
  return bindingOf(
    reads.map((r) => ({
      reading: r.reading,
      level: levelOf(r.reading, r.placed.limit.id.startsWith("p:")),
      ratePerMs: rateOf(inputs, r.placed.limit, key),
    })),
  );
}

/** The key's route patterns it sent checks to in the range: on its chain, beside its unrouted limits. */
function usedRoutes(inputs: TreeInputs, key: KeyShape): string[] {
  const used = inputs.routesOf.get(key.id);
  return used ? [...key.routed.keys()].filter((p) => used.has(p)) : [];
}

export function keyNode(inputs: TreeInputs, key: KeyShape, depth: number): TreeNode {
  const reads = readKey(inputs, key, usedRoutes(inputs, key));
  return node({
    id: `key:${key.name}`,
    level: "key",
    label: `key ${key.name}`,
    depth,
    rejected: inputs.attributed.byKey.get(key.id) ?? 0,
    checksRejected: inputs.rejections.byKey.get(key.id) ?? 0,
    limits: reads
      .filter((r) => r.placed.limit.by === "key" && r.placed.limit.route === null)
      .map((r) => r.reading),
    binding: bindingOfReads(inputs, key, reads),
    drill: { key: key.name },
  });
}

export function routeNode(inputs: TreeInputs, pattern: string, depth: number): TreeNode {
  return node({
    id: `route:${pattern}`,
    level: "route",
    label: pattern,
    depth,
    rejected: inputs.attributed.byRoute.get(pattern) ?? 0,
    checksRejected: inputs.rejections.byRoute.get(pattern) ?? 0,
    limits: readAll(inputs.shape.routes.get(pattern) ?? [], owners(inputs, null), inputs.counters),
    drill: { route: pattern },
  });
}

export function keyRouteNode(
  inputs: TreeInputs,
  key: KeyShape,
  pattern: string,
  depth: number,
  drill: TreeNode["drill"],
): TreeNode {
  const reads = readKey(inputs, key, [pattern]);
  const pair = `${key.id} ${pattern}`;
  return node({
    id: `key-route:${key.name} ${pattern}`,
    level: "key-route",
    // the view's own subject first: the route under a key, the key under a route
    label: drill?.route ? `${pattern} · key ${key.name}` : `key ${key.name} · ${pattern}`,
    depth,
    rejected: inputs.attributed.byKeyRoute.get(pair) ?? 0,
    checksRejected: inputs.rejections.byKeyRoute.get(pair) ?? 0,
    limits: reads.filter((r) => r.placed.limit.route === pattern).map((r) => r.reading),
    binding: bindingOfReads(inputs, key, reads),
    drill,
  });
}

/** `by: subject` limits summarized: how many of the subjects read are at one of them; its
 * limits as read for the busiest of them. */
export function subjectsNode(
  inputs: TreeInputs,
  placed: readonly PlacedLimit[],
  depth: number,
  key: KeyShape | null,
): TreeNode | null {
  const list = placed.filter((p) => p.limit.by === "subject");
  if (list.length === 0) return null;
  let atLimit = 0;
  // with no subject read, the limits still show their settings (at zero use)
  let busiest: LimitReading[] = readAll(list, owners(inputs, key, ""), {
    ...inputs.counters,
    owners: new Map(),
    logs: new Map(),
  });
  let busiestUse = -1;
  const listed = { denied: 0, allowed: 0 };
  for (const subject of inputs.subjects) {
    // a denied subject meets no limit; an allowed one may skip them all: counted apart
    const verdict = inputs.listOf(subject.name)?.verdict;
    if (verdict === "deny") listed.denied++;
    if (verdict === "allow") listed.allowed++;
    if (verdict === "deny") continue;
    const readings = readAll(list, owners(inputs, key, subject.name), inputs.counters);
    if (readings.some((r) => r.mode === "enforce" && evaluated(r) && r.remaining === 0)) atLimit++;
    const use = nodeUtilization(readings) ?? 0;
    if (use > busiestUse) [busiest, busiestUse] = [readings, use];
  }
  return node({
    id: key ? `subjects:${key.name}` : "subjects",
    level: "subjects",
    label: `subjects at their limit: ${atLimit} of ${inputs.subjects.length}${listedText(listed)}`,
    depth,
    rejected: inputs.attributed.subjects,
    // the read subjects' rejections (through any key: offenders are counted per tenant)
    checksRejected: inputs.subjects.reduce((sum, s) => sum + s.rejected, 0),
    limits: busiest,
    subjects: { atLimit, active: inputs.subjects.length, ...listed },
  });
}

/** " · 2 on a deny list, 1 on an allow list": the read subjects the lists answer. */
function listedText(listed: { denied: number; allowed: number }): string {
  const parts = [
    listed.denied > 0 ? `${listed.denied} on a deny list` : "",
    listed.allowed > 0 ? `${listed.allowed} on an allow list` : "",
  ].filter(Boolean);
  return parts.length ? ` · ${parts.join(", ")}` : "";
}
