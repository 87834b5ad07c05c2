import "server-only";
import { z } from "zod";
import type { Principal } from "@/lib/shared/principal";
import type { ProvenanceStep } from "@/lib/control/config/compile";
import { db } from "@/lib/control/data/db";
import { evaluate } from "@/lib/check/limiter/evaluate";
import { tenantFor } from "@/lib/control/data/tenant-access";
import { checkNow } from "@/lib/control/data/check-now";
import { counterClient, withStore } from "@/lib/control/data/counters-store";
import { CounterQuery } from "@/lib/control/data/counters";
import {
  blockedReport,
  blockLeft,
  report,
  skippedOf,
  splitForLimiter,
  type EvaluatedLimit,
  type LimitState,
  type SkippedLimit,
} from "@/lib/control/data/limit-report";

// The request simulator: every limit one check (key, route, subject, cost) meets now, with
// the temporary overrides in force applied as /api/check applies them (check-now.ts), where
// each value comes from, its live counter, and what the check would decide now. It runs the
// limiter's own script with dryRun, exactly as POST /api/check with `dryRun: true` does, so
// nothing is consumed and the verdict is the algorithm's; a limit blocked by an override
// decides in memory, as on the check path.

export const SimulateQuery = CounterQuery.extend({
  cost: z.coerce
    .number({ error: "must be an integer 1..1000000" })
    .int({ error: "must be an integer 1..1000000" })
    .min(1, { error: "must be an integer 1..1000000" })
    .max(1_000_000, { error: "must be an integer 1..1000000" })
    .optional(),
});
export type SimulateQuery = z.infer<typeof SimulateQuery>;

export interface SimulatedLimit extends LimitState {
  /** how the limit got its values, base first: plan, route, tenant, key override */
  provenance: ProvenanceStep[];
  /** whether this check of `cost` would pass this limit */
  allowsThisCheck: boolean;
  /** the limit that decides the check (the one denying, or the tightest enforce limit) */
  deciding: boolean;
}

export interface Simulation {
  tenant: string;
  key: string | null;
  route: string | null;
  subject: string | null;
  cost: number;
  configVersion: number;
  /** the next check's verdict: ok, rate_limited, cost_exceeds_capacity or suspended_tenant */
  allowed: boolean;
  reason: string;
  retryAfterMs: number | null;
  waitMs: number;
  limits: SimulatedLimit[];
  skipped: SkippedLimit[];
}

interface Verdict {
  allowed: boolean;
  reason: string;
  retryAfterMs: number | null;
  waitMs: number;
  /** the deciding limit among the evaluated ones, or -1 */
  deciding: number;
}

/**
 * A blocked limit (override 0) decides the check before the limiter, as on the check path:
 * denied until the block that ends last is over, nothing waited for.
 */
function blockVerdict(evaluated: readonly EvaluatedLimit[], at: number): Verdict | null {
  let deciding = -1;
  let left = -1;
  evaluated.forEach((p, i) => {
    if (p.limit.override?.blocked !== true) return;
    const mine = blockLeft(p.limit, at);
    if (mine > left) [deciding, left] = [i, mine];
  });
  return deciding < 0
    ? null
    : { allowed: false, reason: "rate_limited", retryAfterMs: left, waitMs: 0, deciding };
}

export async function simulateCheck(principal: Principal, query: SimulateQuery): Promise<Simulation> {
  await tenantFor(db(), principal, query.tenant, "viewer");
  const cost = query.cost ?? 1;
  const now = await checkNow(query);
  const { check } = now;
  const { evaluated, counted } = splitForLimiter(now);
  const specs = counted.map((p) => p.spec);
  const [current, next] = await withStore(() =>
    Promise.all([
      evaluate(counterClient(), specs, { cost: 1, dryRun: true }),
      evaluate(counterClient(), specs, { cost, dryRun: true }),
    ]),
  );
  const decider = next.deciding === null ? undefined : counted[next.deciding];
  const decided: Verdict = blockVerdict(evaluated, now.at) ?? {
    allowed: next.allowed,
    reason: next.reason,
    retryAfterMs: next.retryAfterMs,
    waitMs: next.waitMs,
    deciding: decider === undefined ? -1 : evaluated.indexOf(decider),
  };
  const verdict: Verdict =
    check.tenant.status === "active"
      ? decided
      : { ...decided, allowed: false, reason: "suspended_tenant", retryAfterMs: null, waitMs: 0 };
  let i = 0;
  return {
    tenant: query.tenant,
    key: query.key ?? null,
    route: check.route,
    subject: query.subject ?? null,
    cost,
    configVersion: check.snapshot.version,
    allowed: verdict.allowed,
    reason: verdict.reason,
    retryAfterMs: verdict.retryAfterMs,
    waitMs: verdict.waitMs,
    limits: evaluated.map((p, index) => {
      const deciding = verdict.deciding === index;
      if (p.limit.override?.blocked === true)
        return {
          ...blockedReport(p.limit, now.at),
          provenance: p.limit.provenance,
          allowsThisCheck: false,
          deciding,
        };
      const one = current.limits[i];
      const mine = next.limits[i++];
      if (!one || !mine) throw new Error("limiter reply is missing a limit");
      return {
        ...report(p.limit, one),
        provenance: p.limit.provenance,
        allowsThisCheck: mine.allowed,
        deciding,
      };
    }),
    skipped: skippedOf(now, (by) => `counts per ${by}; give a ${by}`),
  };
}
