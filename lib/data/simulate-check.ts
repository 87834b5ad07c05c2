import "server-only";
import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import type { CompiledLimit, ProvenanceStep } from "@/lib/config/compile";
import { db } from "@/lib/data/db";
import { evaluate } from "@/lib/limiter/evaluate";
import type { LimitSpec } from "@/lib/limiter/types";
import { tenantFor } from "@/lib/data/tenant-access";
import { planCheck } from "@/lib/data/counter-specs";
import { counterClient, withStore } from "@/lib/data/counters-store";
import { CounterQuery, report, resolveCheck, type LimitState } from "@/lib/data/counters";

// The request simulator: every limit one check (key, route, subject, cost) meets, where each
// value comes from, its live counter, and what the check would decide now. It runs the
// limiter's own script with dryRun, exactly as POST /api/check with `dryRun: true` does, so
// nothing is consumed and the verdict is the algorithm's.

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
  skipped: { name: string; by: string; reason: string }[];
}

export async function simulateCheck(principal: Principal, query: SimulateQuery): Promise<Simulation> {
  await tenantFor(db(), principal, query.tenant, "viewer");
  const cost = query.cost ?? 1;
  const check = await resolveCheck(query.tenant, query.key ?? null, query.route ?? null);
  const owners = { tenantId: check.tenant.id, keyId: check.keyId, subject: query.subject ?? null };
  const planned = planCheck(check.snapshot, check.tenant, query.key ?? null, check.routes, owners);
  const evaluated = planned.filter((p): p is { limit: CompiledLimit; spec: LimitSpec } => p.spec !== null);
  const specs = evaluated.map((p) => p.spec);
  const [now, verdict] = await withStore(() =>
    Promise.all([
      evaluate(counterClient(), specs, { cost: 1, dryRun: true }),
      evaluate(counterClient(), specs, { cost, dryRun: true }),
    ]),
  );
  const suspended = check.tenant.status !== "active";
  return {
    tenant: query.tenant,
    key: query.key ?? null,
    route: check.route,
    subject: query.subject ?? null,
    cost,
    configVersion: check.snapshot.version,
    allowed: !suspended && verdict.allowed,
    reason: suspended ? "suspended_tenant" : verdict.reason,
    retryAfterMs: suspended ? null : verdict.retryAfterMs,
    waitMs: suspended ? 0 : verdict.waitMs,
    limits: evaluated.map((p, i) => {
      const current = now.limits[i];
      const next = verdict.limits[i];
      if (!current || !next) throw new Error("limiter reply is missing a limit");
      return {
        ...report(p.limit, current),
        provenance: p.limit.provenance,
        allowsThisCheck: next.allowed,
        deciding: verdict.deciding === i,
      };
    }),
    skipped: planned
      .filter((p) => p.spec === null)
      .map((p) => ({
        name: p.limit.name,
        by: p.limit.by,
        reason: `counts per ${p.limit.by}; give a ${p.limit.by}`,
      })),
  };
}
