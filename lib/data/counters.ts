import "server-only";
import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import {
  resolveRoutes,
  shownRoute,
  type CompiledLimit,
  type CompiledTenant,
  type RouteResolution,
  type Snapshot,
} from "@/lib/config/compile";
import { NAME_PATTERN, NAME_RULE } from "@/lib/config/document";
import { db } from "@/lib/data/db";
import { evaluate } from "@/lib/limiter/evaluate";
import type { LimitDecision, LimitSpec } from "@/lib/limiter/types";
import { NotFoundError } from "@/lib/data/errors";
import { tenantFor } from "@/lib/data/tenant-access";
import { planCheck } from "@/lib/data/counter-specs";
import { counterClient, latestSnapshot, withStore } from "@/lib/data/counters-store";
import { safeText } from "@/lib/shared/safe-text";
import { readLocalState } from "@/lib/data/local-state";

// GET /api/admin/state: the counters of every limit a check would meet, read through the
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

export interface LimitState {
  name: string;
  id: string;
  level: CompiledLimit["level"];
  by: CompiledLimit["by"];
  route: string | null;
  algorithm: string;
  mode: string;
  limit: number;
  windowMs: number;
  burst: number | null;
  /** units a check could take right now */
  remaining: number;
  /** until back at full capacity, as if a check of cost 1 came now */
  resetMs: number;
  /** whether a check of cost 1 would pass this limit now */
  wouldAllow: boolean;
  /** when it would not: the earliest time it could */
  retryAfterMs: number | null;
}

export interface CounterState {
  tenant: string;
  key: string | null;
  /** the route pattern the given route resolves to, or null */
  route: string | null;
  subject: string | null;
  configVersion: number;
  limits: LimitState[];
  /** limits that apply but count by an owner the query did not give (a subject) */
  skipped: { name: string; by: string; reason: string }[];
}

export interface ResolvedCheck {
  snapshot: Snapshot;
  tenant: CompiledTenant;
  keyId: string | null;
  /** the pattern an answer names (the tenant's, else the global one) */
  route: string | null;
  /** both resolved patterns: their limits apply together */
  routes: RouteResolution;
}

/** The compiled tenant, key and route of a query; 404 for a key the tenant does not have. */
export async function resolveCheck(
  slugName: string,
  keyName: string | null,
  route: string | null,
): Promise<ResolvedCheck> {
  const snapshot = await latestSnapshot();
  const tenant = snapshot?.tenants[slugName];
  if (!snapshot || !tenant) throw new NotFoundError(`No tenant named ${slugName}.`);
  let keyId: string | null = null;
  if (keyName !== null) {
    const key = tenant.keys[keyName];
    if (!key) throw new NotFoundError(`Tenant ${slugName} has no key named ${keyName}.`);
    keyId = key.id;
  }
  const routes = resolveRoutes(snapshot, slugName, route);
  return { snapshot, tenant, keyId, route: shownRoute(routes), routes };
}

/** One limit's state as state and the simulator answer it. */
export function report(limit: CompiledLimit, decision: LimitDecision): LimitState {
  return {
    name: limit.name,
    id: limit.id,
    level: limit.level,
    by: limit.by,
    route: limit.route,
    algorithm: limit.rule.algorithm,
    mode: limit.rule.mode,
    limit: limit.rule.limit,
    windowMs: limit.rule.windowMs,
    burst: limit.rule.burst,
    // dryRun reports as of just after the hypothetical check: add back its unit.
    remaining: decision.consumed ? decision.remaining + 1 : decision.remaining,
    resetMs: decision.resetMs,
    wouldAllow: decision.allowed,
    retryAfterMs: decision.retryAfterMs,
  };
}

export async function counterState(principal: Principal, query: CounterQuery): Promise<CounterState> {
  await tenantFor(db(), principal, query.tenant, "viewer");
  const check = await resolveCheck(query.tenant, query.key ?? null, query.route ?? null);
  const owners = { tenantId: check.tenant.id, keyId: check.keyId, subject: query.subject ?? null };
  const planned = planCheck(check.snapshot, check.tenant, query.key ?? null, check.routes, owners);
  const evaluated = planned.filter((p): p is { limit: CompiledLimit; spec: LimitSpec } => p.spec !== null);
  const decision = await withStore(() =>
    evaluate(
      counterClient(),
      evaluated.map((p) => p.spec),
      { cost: 1, dryRun: true },
    ),
  );
  const local = await withStore(() =>
    Promise.all(evaluated.map((p) => readLocalState(counterClient(), p.limit, p.spec))),
  );
  return {
    tenant: query.tenant,
    key: query.key ?? null,
    route: check.route,
    subject: query.subject ?? null,
    configVersion: check.snapshot.version,
    limits: evaluated.map((p, i) => {
      const one = decision.limits[i];
      if (!one) throw new Error("limiter reply is missing a limit");
      const reading = local[i];
      return reading ? { ...report(p.limit, one), ...reading } : report(p.limit, one);
    }),
    skipped: planned
      .filter((p) => p.spec === null)
      .map((p) => ({
        name: p.limit.name,
        by: p.limit.by,
        reason: `counts per ${p.limit.by}; give ${p.limit.by}= to see it`,
      })),
  };
}
