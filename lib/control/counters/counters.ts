import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { evaluate } from "@/lib/check/limiter/evaluate";
import { readableTenant } from "@/lib/control/data/tenant-access";
import { checkNow } from "@/lib/control/counters/check-now";
import { counterClient, withStore } from "@/lib/control/data/counters-store";
import {
  blockedReport,
  report,
  skippedOf,
  splitForLimiter,
  type LimitState,
  type SkippedLimit,
} from "@/lib/control/counters/limit-report";
import { readLocalState } from "@/lib/control/counters/local-state";
import { blocksLeft } from "@/lib/control/counters/penalty-block";
import type { CounterQuery } from "@/lib/control/counters/counter-query";

// GET /api/admin/state: the counters of every limit a check would meet now, temporary
// overrides in force applied as /api/check applies them (check-now.ts), read through the
// limiter's own script with dryRun (so the numbers are the algorithm's, and nothing is
// consumed). Resets live in counter-reset.ts.

export interface CounterState {
  tenant: string;
  key: string | null;
  /** the route pattern the given route resolves to, or null */
  route: string | null;
  subject: string | null;
  configVersion: number;
  /** as /api/check would meet them now: temporary overrides in force applied */
  limits: LimitState[];
  /** limits that apply but count by an owner the query did not give (a subject), or that an override disables */
  skipped: SkippedLimit[];
}

export async function counterState(principal: Principal, query: CounterQuery): Promise<CounterState> {
  await readableTenant(principal, query.tenant, "viewer");
  const now = await checkNow(query);
  const { check } = now;
  const { evaluated, counted } = splitForLimiter(now);
  const decision = await withStore(() =>
    evaluate(
      counterClient(),
      counted.map((p) => p.spec),
      { cost: 1, dryRun: true },
    ),
  );
  const local = await withStore(() =>
    Promise.all(counted.map((p) => readLocalState(counterClient(), p.limit, p.spec))),
  );
  const owners = { tenantId: check.tenant.id, keyId: check.keyId, subject: now.subject };
  const blocks = await withStore(() =>
    blocksLeft(
      counterClient(),
      check.tenant.id,
      counted.map((p) => p.limit),
      owners,
    ),
  );
  const blockOf = (p: (typeof counted)[number]) => {
    const left = blocks[counted.indexOf(p)];
    return left === undefined ? {} : { penaltyBlockMs: left };
  };
  let i = 0;
  return {
    tenant: query.tenant,
    key: query.key ?? null,
    route: check.route,
    subject: query.subject ?? null,
    configVersion: check.snapshot.version,
    limits: evaluated.map((p) => {
      if (p.limit.override?.blocked === true) return blockedReport(p.limit, now.at);
      const one = decision.limits[i];
      const reading = local[i++];
      if (!one) throw new Error("limiter reply is missing a limit");
      const state = reading ? { ...report(p.limit, one), ...reading } : report(p.limit, one);
      return { ...state, ...blockOf(p) };
    }),
    skipped: skippedOf(now, (by) => `counts per ${by}; give ${by}= to see it`),
  };
}
