import "server-only";
import type { Principal } from "@/lib/auth/principal";
import { limitSetFor, type CompiledLimit, type LimitSet } from "@/lib/config/compile";
import { db } from "@/lib/data/db";
import { tenantFor } from "@/lib/data/tenant-access";
import { counterClient, latestSnapshot } from "@/lib/data/counters-store";
import { specOf } from "@/lib/enforce/limit-specs";
import { evaluate } from "@/lib/limiter/evaluate";
import type { CheckDecision, LimitSpec } from "@/lib/limiter/types";

// Current utilization of a tenant's limits for its Limits tab: the live counters of every
// limit counted per tenant and of every key's per-key limits, read in one limiter call
// (dryRun: nothing consumed). Subject limits have one counter per subject: the lookup
// shows those. Bounded: past MAX_COUNTERS (many keys) the rest is left out and said so.

const MAX_COUNTERS = 200;

export interface LiveCounter {
  name: string;
  route: string | null;
  /** "tenant", or the key's name */
  owner: string;
  capacity: number;
  used: number;
  resetMs: number;
}

export interface LiveUtilization {
  counters: LiveCounter[];
  /** counters not read because of the bound */
  leftOut: number;
}

const setLimits = (set: LimitSet): CompiledLimit[] => [...set.unrouted, ...Object.values(set.routed).flat()];

/** null when Redis cannot be read right now. */
export async function liveUtilization(principal: Principal, slug: string): Promise<LiveUtilization | null> {
  const ref = await tenantFor(db(), principal, slug, "viewer");
  const snapshot = await latestSnapshot();
  const tenant = snapshot?.tenants[slug];
  if (!tenant) return { counters: [], leftOut: 0 };
  const wanted: { limit: CompiledLimit; owner: string; spec: LimitSpec }[] = [];
  for (const limit of setLimits(tenant.limits)) {
    const spec =
      limit.by === "tenant" ? specOf(limit, { tenantId: ref.id, keyId: null, subject: null }) : null;
    if (spec) wanted.push({ limit, owner: "tenant", spec });
  }
  for (const key of Object.values(tenant.keys))
    for (const limit of setLimits(limitSetFor(tenant, key.name))) {
      const spec =
        limit.by === "key" ? specOf(limit, { tenantId: ref.id, keyId: key.id, subject: null }) : null;
      if (spec) wanted.push({ limit, owner: key.name, spec });
    }
  const seen = new Set<string>();
  const unique = wanted.filter((w) => {
    const id = `${w.spec.id}|${w.spec.identity}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  const read = unique.slice(0, MAX_COUNTERS);
  let decision: CheckDecision;
  try {
    decision = await evaluate(
      counterClient(),
      read.map((w) => w.spec),
      { cost: 1, dryRun: true },
    );
  } catch {
    return null; // Redis down or slow: the Limits tab still renders, saying so
  }
  return {
    counters: read.map((w, i) => {
      const one = decision.limits[i];
      const capacity = Math.max(w.limit.rule.burst ?? w.limit.rule.limit, 1);
      const remaining = one ? (one.consumed ? one.remaining + 1 : one.remaining) : capacity;
      return {
        name: w.limit.name,
        route: w.limit.route,
        owner: w.owner,
        capacity,
        used: Math.max(0, capacity - remaining),
        resetMs: one?.resetMs ?? 0,
      };
    }),
    leftOut: unique.length - read.length,
  };
}
