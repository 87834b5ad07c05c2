import "server-only";
import type { CompiledLimit } from "@/lib/control/config/compile";
import type { PublishedOverride } from "@/lib/check/published/published";
import { NotFoundError } from "@/lib/control/errors/errors";
import { planCheck, type PlannedLimit } from "@/lib/control/counters/counter-specs";
import type { CounterQuery } from "@/lib/control/counters/counter-query";
import { resolveIn, type ResolvedCheck } from "@/lib/control/counters/resolve-check";
import { snapshotNow } from "@/lib/control/counters/snapshot-now";
import { subnetSubject } from "@/lib/check/lists/subnet-subject";

// A check of the admin API's state and simulator as /api/check would meet it right now:
// resolved in the snapshot with the temporary overrides in force (snapshot-now.ts), and for
// a subject with overrides of its own, in that subject's variant of the tenant, as the
// check path's subjectShape does. A limit an override disables is not evaluated (as in the
// check), but listed with the override that disables it, so the operator sees why.

/** The temporary override a limit of an answer is under (docs/overrides.md). */
export interface LimitOverride {
  id: string;
  /** the limit in force: 0 blocks; "disabled": the limit is not evaluated */
  value: number | "disabled";
  /** ISO 8601 */
  endsAt: string;
}

export interface CheckNow {
  /** resolved in the snapshot with overrides; `tenant` is the subject's variant when it has one */
  check: ResolvedCheck;
  planned: PlannedLimit[];
  /** limits the check would meet but for a "disabled" override */
  disabled: { limit: CompiledLimit; override: LimitOverride }[];
  /** when it was planned (epoch ms): a block's retry time counts from it */
  at: number;
  /** the subject as the limits count it: an address as its network under subnet keying */
  subject: string | null;
}

/** The override a limit is under, as the answers show it; null when none applies. */
export function overrideOf(limit: CompiledLimit): LimitOverride | null {
  if (!limit.override) return null;
  return { id: limit.override.id, value: limit.rule.limit, endsAt: limit.override.endsAt };
}

/** The most specific "disabled" override in force that removed this limit from the check. */
export function disabling(
  active: readonly PublishedOverride[],
  query: Pick<CounterQuery, "tenant" | "key" | "subject">,
  limit: CompiledLimit,
): PublishedOverride | undefined {
  const rank = (o: PublishedOverride): number => (o.subject !== null ? 2 : o.key !== null ? 1 : 0);
  return active
    .filter(
      (o) =>
        o.tenant === query.tenant &&
        o.limit === limit.name &&
        o.value === null &&
        (o.subject !== null
          ? o.subject === query.subject && limit.by === "subject"
          : o.key === null || o.key === query.key),
    )
    .sort((a, b) => rank(b) - rank(a))[0];
}

/** A limit's place in a set: its id and route (one limit may sit on several routes). */
export const limitSlot = (limit: CompiledLimit): string => `${limit.id}\n${limit.route ?? ""}`;

export async function checkNow(query: CounterQuery): Promise<CheckNow> {
  const now = await snapshotNow();
  if (!now) throw new NotFoundError(`No tenant named ${query.tenant}.`);
  const keyName = query.key ?? null;
  const resolved = resolveIn(now.snapshot, query.tenant, keyName, query.route ?? null);
  // subnet keying comes first on the check path: overrides name the network too
  const prefixes = resolved.tenant.ipSubjects;
  const sent = query.subject ?? null;
  const subject = sent === null || prefixes === undefined ? sent : subnetSubject(sent, prefixes);
  const tenant =
    subject === null ? resolved.tenant : (resolved.tenant.subjectOverrides?.get(subject) ?? resolved.tenant);
  const check: ResolvedCheck = { ...resolved, tenant };
  const owners = { tenantId: tenant.id, keyId: check.keyId, subject };
  const planned = planCheck(tenant, keyName, check.routes, owners);
  const disabled: CheckNow["disabled"] = [];
  const plainTenant = now.plain.tenants[query.tenant];
  if (now.active.length > 0 && plainTenant) {
    const kept = new Set(planned.map((p) => limitSlot(p.limit)));
    for (const { limit } of planCheck(plainTenant, keyName, check.routes, owners)) {
      if (kept.has(limitSlot(limit))) continue;
      const override = disabling(now.active, { ...query, subject: subject ?? undefined }, limit);
      if (override)
        disabled.push({
          limit,
          override: { id: override.id, value: "disabled", endsAt: new Date(override.endsAt).toISOString() },
        });
    }
  }
  return { check, planned, disabled, at: now.at, subject };
}
