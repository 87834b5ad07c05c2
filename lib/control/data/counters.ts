import "server-only";
import { z } from "zod";
import type { Principal } from "@/lib/shared/principal";
import { NAME_PATTERN, NAME_RULE } from "@/lib/control/config/document";
import { db } from "@/lib/control/data/db";
import { evaluate } from "@/lib/check/limiter/evaluate";
import { tenantFor } from "@/lib/control/data/tenant-access";
import { checkNow } from "@/lib/control/data/check-now";
import { counterClient, withStore } from "@/lib/control/data/counters-store";
import {
  blockedReport,
  report,
  skippedOf,
  splitForLimiter,
  type LimitState,
  type SkippedLimit,
} from "@/lib/control/data/limit-report";
import { safeText } from "@/lib/shared/safe-text";
import { readLocalState } from "@/lib/control/data/local-state";

// GET /api/admin/state: the counters of every limit a check would meet now, temporary
// overrides in force applied as /api/check applies them (check-now.ts), read through the
// limiter's own script with dryRun (so the numbers are the algorithm's, and nothing is
// consumed). Resets live in counter-reset.ts.

const slug = z.string().regex(NAME_PATTERN, { error: NAME_RULE });

export const CounterQuery = z.strictObject({
  tenant: slug,
  key: slug.optional(),
  route: safeText(
    z
      .string()
      .max(2048, { error: "must be at most 2048 characters" })
      .regex(/^[A-Za-z*]+ \/\S*$/, { error: 'must be "METHOD /path", e.g. "GET /v1/items/42"' }),
  ).optional(),
  subject: safeText(
    z.string().min(1, { error: "must not be empty" }).max(256, { error: "must be at most 256 characters" }),
  ).optional(),
});
export type CounterQuery = z.infer<typeof CounterQuery>;

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
  await tenantFor(db(), principal, query.tenant, "viewer");
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
      return reading ? { ...report(p.limit, one), ...reading } : report(p.limit, one);
    }),
    skipped: skippedOf(now, (by) => `counts per ${by}; give ${by}= to see it`),
  };
}
