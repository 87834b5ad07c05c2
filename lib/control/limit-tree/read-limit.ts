import "server-only";
import type { CompiledLimit } from "@/lib/control/config/compile";
import { ownerKey } from "@/lib/check/limiter/keys";
import { blockEntryOf } from "@/lib/check/limiter/penalty-args";
import type { CounterRead } from "@/lib/control/limit-tree/limit-tree-counters";
import { logUsage, usageOf, utilizationOf, type Usage } from "@/lib/control/limit-tree/readings";
import { logKeyOf, type PlacedLimit } from "@/lib/control/limit-tree/shape";
import type { LimitReading, SourceStep, TreeNode } from "@/lib/control/limit-tree/types";
import { periodBounds } from "@/lib/shared/calendar";

// From a placed limit and one owner's counters to what a node shows; a node's utilization
// from its limits, and the level a limit sits at (what binds: binds.ts).

/** An owner ("t.<tenant id>", "k.<key id>", "s.<subject>") and its Redis key. */
export interface Owner {
  name: string;
  key: string;
}

export interface Owners {
  tenantId: string;
  tenant: Owner;
  key: Owner | null;
  subject: Owner | null;
}

export function ownerNamed(tenantId: string, name: string): Owner {
  return { name, key: ownerKey(tenantId, name) };
}

function ownerFor(limit: CompiledLimit, owners: Owners): Owner | null {
  if (limit.by === "tenant") return owners.tenant;
  return limit.by === "key" ? owners.key : owners.subject;
}

// shared by every reading of a limit: a snapshot's limits live as long as its version
const provenances = new WeakMap<CompiledLimit, SourceStep[]>();

function provenance(limit: CompiledLimit): SourceStep[] {
  let steps = provenances.get(limit);
  if (!steps) {
    steps = limit.provenance.map((p) => ({ level: p.level, source: p.source, fields: [...p.fields] }));
    provenances.set(limit, steps);
  }
  return steps;
}

/** A block (0) holds nothing and admits nothing; a disabled limit counts nothing now. */
const NOT_COUNTED: Usage = { used: 0, capacity: 0, remaining: 0 };

function usageNow(p: PlacedLimit, owners: Owners, owner: Owner, counters: CounterRead): Usage {
  if (p.override?.value === "disabled" || p.override?.value === 0) return NOT_COUNTED;
  const { rule } = p.limit;
  // a sliding log's units in its window; a concurrency limit's leases held
  return rule.algorithm === "sliding_log" || rule.algorithm === "concurrency"
    ? logUsage(rule, counters.logs.get(logKeyOf(owners.tenantId, p.limit, owner.name)) ?? 0)
    : usageOf(rule, counters.owners.get(owner.key)?.get(p.entry), counters.now);
}

/** A penalty's block running on the owner: its record beside the counter (penalty-block.ts). */
function blockOf(p: PlacedLimit, owner: Owner, counters: CounterRead): LimitReading["penaltyBlock"] {
  if (p.limit.rule.penalty === undefined) return undefined;
  const block = counters.owners.get(owner.key)?.get(blockEntryOf(p.entry));
  const endsAt = block?.[0] ?? 0;
  return endsAt > counters.now ? { endsAt, leftMs: endsAt - counters.now } : undefined;
}

/** The limit read from its owner's counter; null when the owners lack its owner. */
export function readLimit(p: PlacedLimit, owners: Owners, counters: CounterRead): LimitReading | null {
  const owner = ownerFor(p.limit, owners);
  if (owner === null) return null;
  const { rule } = p.limit;
  const usage = usageNow(p, owners, owner, counters);
  const block = blockOf(p, owner, counters);
  return {
    name: p.limit.name,
    by: p.limit.by,
    route: p.limit.route,
    algorithm: rule.algorithm,
    mode: rule.mode,
    limit: rule.limit,
    windowMs: rule.windowMs,
    burst: rule.burst,
    used: usage.used,
    capacity: usage.capacity,
    // a blocked owner admits nothing until the block ends, whatever its counter says
    remaining: block ? 0 : usage.remaining,
    utilization: p.override?.value === 0 || block ? 1 : utilizationOf(usage),
    ...(block ? { penaltyBlock: block } : {}),
    override: p.override,
    from: p.limit.level,
    provenance: provenance(p.limit),
    ...(rule.calendar
      ? {
          calendar: {
            ...rule.calendar,
            resetsAt: periodBounds(rule.calendar.period, rule.calendar.timeZone, counters.now).end,
          },
        }
      : {}),
  };
}

export function readAll(list: readonly PlacedLimit[], owners: Owners, counters: CounterRead): LimitReading[] {
  return list.flatMap((p) => readLimit(p, owners, counters) ?? []);
}

/** Whether the check evaluates it now (an override can disable it for a while). */
export const evaluated = (limit: LimitReading): boolean => limit.override?.value !== "disabled";

/** The highest utilization among enforce limits (shadow ones when none enforce); disabled ones do not count. */
export function nodeUtilization(all: readonly LimitReading[]): number | null {
  const limits = all.filter(evaluated);
  if (limits.length === 0) return null;
  const enforce = limits.filter((l) => l.mode === "enforce");
  return Math.max(...(enforce.length ? enforce : limits).map((l) => l.utilization));
}

/** Which level of the tree a limit belongs to, for the binding mark. */
export function levelOf(limit: LimitReading, fromPlan: boolean): NonNullable<TreeNode["binding"]>["level"] {
  if (limit.route !== null) return "route";
  if (limit.by === "subject") return "subject";
  if (limit.by === "key") return "key";
  return fromPlan ? "plan" : "tenant";
}
