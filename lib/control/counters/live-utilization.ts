import "server-only";
import type { Principal } from "@/lib/shared/principal";
import type { CompiledLimit } from "@/lib/control/config/compile";
import { readableTenant } from "@/lib/control/data/tenant-access";
import type { LimitOverride } from "@/lib/control/counters/check-now";
import { counterClient } from "@/lib/control/data/counters-store";
import { allInForce, tenantInForce, type LimitInForce } from "@/lib/control/counters/limits-in-force";
import { snapshotNow } from "@/lib/control/counters/snapshot-now";
import { specOf } from "@/lib/check/limit-specs";
import { evaluate } from "@/lib/check/limiter/evaluate";
import type { CheckDecision, LimitSpec } from "@/lib/check/limiter/types";

// Current utilization of a tenant's limits for its Limits tab: the live counters of every
// limit counted per tenant and of every key's per-key limits, read in one limiter call
// (dryRun: nothing consumed). The limits are those /api/check enforces now (temporary
// overrides in force applied, limits-in-force.ts): use is measured against the value in
// force, a blocked limit (0) is full without a read, a disabled one is listed, unread.
// Subject limits have one counter per subject: the lookup shows those. Bounded: past
// MAX_COUNTERS (many keys) the rest is left out and said so.

const MAX_COUNTERS = 200;

export interface LiveCounter {
  name: string;
  route: string | null;
  /** how the limit counts: "tenant" or "key" (subject limits are not read here) */
  by: string;
  windowMs: number;
  /** "tenant", or the key's name */
  owner: string;
  /** units the counter holds now (burst or limit, as in force); 0 when blocked or disabled */
  capacity: number;
  used: number;
  resetMs: number;
  /** the temporary override in force on it (value 0: blocked, "disabled": not evaluated), or null */
  override: LimitOverride | null;
  /** the limit and burst in force: an override's value, its burst scaled with it */
  inForce: { limit: number; burst: number | null };
}

export interface LiveUtilization {
  counters: LiveCounter[];
  /** counters not read because of the bound */
  leftOut: number;
}

interface Wanted extends LimitInForce {
  owner: string;
  spec: LimitSpec;
}

/** Whether the limiter reads its counter: a block is decided without one, a disabled limit not at all. */
const counted = (w: LimitInForce): boolean =>
  w.override === null || (w.override.value !== "disabled" && w.override.value > 0);

function unread(w: Wanted): LiveCounter {
  return {
    name: w.limit.name,
    route: w.limit.route,
    by: w.limit.by,
    windowMs: w.limit.rule.windowMs,
    owner: w.owner,
    capacity: 0,
    used: 0,
    resetMs: 0,
    override: w.override,
    inForce: { limit: w.limit.rule.limit, burst: w.limit.rule.burst },
  };
}

/** null when Redis cannot be read right now. */
export async function liveUtilization(principal: Principal, slug: string): Promise<LiveUtilization | null> {
  const ref = await readableTenant(principal, slug, "viewer");
  const now = await snapshotNow();
  const tenant = now && tenantInForce(now, slug);
  if (!tenant || tenant.tenant.id !== ref.id) return { counters: [], leftOut: 0 };
  const wanted: Wanted[] = [];
  const add = (
    list: readonly LimitInForce[],
    by: CompiledLimit["by"],
    owner: string,
    keyId: string | null,
  ) => {
    for (const w of list) {
      if (w.limit.by !== by) continue;
      const spec = specOf(w.limit, { tenantId: ref.id, keyId, subject: null });
      if (spec) wanted.push({ ...w, owner, spec });
    }
  };
  add(allInForce(tenant.limits), "tenant", "tenant", null);
  for (const key of Object.values(tenant.tenant.keys))
    add(allInForce(tenant.keys[key.name] ?? tenant.keyDefault), "key", key.name, key.id);
  const seen = new Set<string>();
  const unique = wanted.filter((w) => {
    const id = `${w.spec.id}|${w.spec.identity}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  const listed = unique.slice(0, MAX_COUNTERS);
  const read = listed.filter(counted);
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
  const readings = new Map<Wanted, LiveCounter>();
  read.forEach((w, i) => {
    const one = decision.limits[i];
    const capacity = Math.max(w.limit.rule.burst ?? w.limit.rule.limit, 1);
    const remaining = one ? (one.consumed ? one.remaining + 1 : one.remaining) : capacity;
    readings.set(w, {
      name: w.limit.name,
      route: w.limit.route,
      by: w.limit.by,
      windowMs: w.limit.rule.windowMs,
      owner: w.owner,
      capacity,
      used: Math.max(0, capacity - remaining),
      resetMs: one?.resetMs ?? 0,
      override: w.override,
      inForce: { limit: w.limit.rule.limit, burst: w.limit.rule.burst },
    });
  });
  return {
    counters: listed.map((w) => readings.get(w) ?? unread(w)),
    leftOut: unique.length - listed.length,
  };
}
