import "server-only";
import { z } from "zod";
import type { Principal } from "@/lib/shared/principal";
import type { ProvenanceStep } from "@/lib/control/config/compile";
import { evaluate } from "@/lib/check/limiter/evaluate";
import { readableTenant } from "@/lib/control/data/tenant-access";
import { checkNow, type CheckNow } from "@/lib/control/counters/check-now";
import { counterClient, withStore } from "@/lib/control/data/counters-store";
import { CounterQuery } from "@/lib/control/counters/counter-query";
import {
  blockedReport,
  blockLeft,
  report,
  skippedOf,
  splitForLimiter,
  type EvaluatedLimit,
  type LimitState,
  type SkippedLimit,
} from "@/lib/control/counters/limit-report";
import { blocksLeft } from "@/lib/control/counters/penalty-block";
import { listOutcome, skipsLimit, type ListOutcome } from "@/lib/control/counters/list-outcome";

// The request simulator: every limit one check (key, route, subject, cost) meets now, with
// the temporary overrides in force applied as /api/check applies them (check-now.ts), where
// each value comes from, its live counter, and what the check would decide now. It runs the
// limiter's own script with dryRun, exactly as POST /api/check with `dryRun: true` does, so
// nothing is consumed and the verdict is the algorithm's; a limit blocked by an override
// decides in memory, as on the check path. A subject on a deny list is denied before any
// limit (nothing evaluated); one on an allow list leaves out the limits it skips. A penalty's
// block running on an owner is read beside the verdict (the script's dry run denies with
// reason penalty), with its end.

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
  /** a penalty's block running on this identity: when it ends (ISO 8601); penaltyBlockMs is what is left */
  penaltyBlockEnds?: string;
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
  /** the allow and deny lists' answer to the subject, or null: on no list (or no subject) */
  list: ListOutcome | null;
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

/** A subject the deny list holds: denied at once, every limit listed as not evaluated. */
function deniedByList(query: SimulateQuery, now: CheckNow, cost: number, list: ListOutcome): Simulation {
  const where = list.from.join(" and ");
  return {
    ...heading(query, now, cost),
    allowed: false,
    reason: "deny_list",
    retryAfterMs: null,
    waitMs: 0,
    limits: [],
    skipped: now.planned.map((p) => ({
      name: p.limit.name,
      by: p.limit.by,
      reason: `not evaluated: the subject is on the ${where} deny list`,
      override: null,
    })),
    list,
  };
}

function heading(query: SimulateQuery, now: CheckNow, cost: number) {
  return {
    tenant: query.tenant,
    key: query.key ?? null,
    route: now.check.route,
    subject: query.subject ?? null,
    cost,
    configVersion: now.check.snapshot.version,
  };
}

/** The check without the limits an allow entry skips, and those limits as skipped. */
function withoutSkipped(now: CheckNow, list: ListOutcome | null): { now: CheckNow; skipped: SkippedLimit[] } {
  if (list === null) return { now, skipped: [] };
  const skipped = now.planned
    .filter((p) => skipsLimit(list, p.limit.name))
    .map((p) => ({
      name: p.limit.name,
      by: p.limit.by,
      reason: `skipped: the subject is on the ${list.from.join(" and ")} allow list`,
      override: null,
    }));
  return { now: { ...now, planned: now.planned.filter((p) => !skipsLimit(list, p.limit.name)) }, skipped };
}

export async function simulateCheck(principal: Principal, query: SimulateQuery): Promise<Simulation> {
  await readableTenant(principal, query.tenant, "viewer");
  const cost = query.cost ?? 1;
  const planned = await checkNow(query);
  const sent = query.subject ?? null;
  const list = sent === null ? null : listOutcome(planned.check.snapshot, planned.check.tenant, sent);
  if (list?.verdict === "deny") return deniedByList(query, planned, cost, list);
  const { now, skipped: allowSkipped } = withoutSkipped(planned, list);
  const { check } = now;
  const { evaluated, counted } = splitForLimiter(now);
  const specs = counted.map((p) => p.spec);
  const owners = { tenantId: check.tenant.id, keyId: check.keyId, subject: now.subject };
  const [current, next, blocks] = await withStore(() =>
    Promise.all([
      evaluate(counterClient(), specs, { cost: 1, dryRun: true }),
      evaluate(counterClient(), specs, { cost, dryRun: true }),
      blocksLeft(
        counterClient(),
        check.tenant.id,
        counted.map((p) => p.limit),
        owners,
      ),
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
    ...heading(query, now, cost),
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
      const left = blocks[i];
      const one = current.limits[i];
      const mine = next.limits[i++];
      if (!one || !mine) throw new Error("limiter reply is missing a limit");
      return {
        ...report(p.limit, one),
        provenance: p.limit.provenance,
        allowsThisCheck: mine.allowed,
        deciding,
        ...(left === undefined
          ? {}
          : { penaltyBlockMs: left, penaltyBlockEnds: new Date(now.at + left).toISOString() }),
      };
    }),
    skipped: [...allowSkipped, ...skippedOf(now, (by) => `counts per ${by}; give a ${by}`)],
    list,
  };
}
