import "server-only";
import { isOperator, type Principal } from "@/lib/shared/principal";
import { db } from "@/lib/control/data/db";
import { ForbiddenError } from "@/lib/control/errors/errors";
import type { OverrideListQuery } from "@/lib/control/overrides/override-input";
import { OVERRIDE_SELECT, overrideView, type OverrideView } from "@/lib/control/data/override-view";
import { tenantFor } from "@/lib/control/data/tenant-access";
import { latestSnapshot } from "@/lib/control/data/counters-store";

// Overrides in force and waiting: one tenant's (its viewers and up), or every tenant's for
// operators (the dashboard's "all active overrides" list).

const LIST_MAX = 500;

export interface OverrideList {
  /** when the list was read (epoch ms): countdowns start from it */
  at: number;
  overrides: OverrideView[];
}

export async function listOverrides(principal: Principal, query: OverrideListQuery): Promise<OverrideList> {
  const now = new Date();
  let tenantId: string | undefined;
  if (query.tenant !== undefined) {
    tenantId = (await tenantFor(db(), principal, query.tenant, "viewer")).id;
  } else if (!isOperator(principal)) {
    throw new ForbiddenError("Listing every tenant's overrides needs an operator; name a tenant.");
  }
  const state = query.state ?? "current";
  const rows = await db().override.findMany({
    where: {
      ...(tenantId === undefined ? {} : { tenantId }),
      endsAt: { gt: now },
      OR: [{ endedAt: null }, { endedAt: { gt: now } }],
      ...(state === "active"
        ? { startsAt: { lte: now } }
        : state === "upcoming"
          ? { startsAt: { gt: now } }
          : {}),
    },
    select: OVERRIDE_SELECT,
    orderBy: [{ startsAt: "asc" }, { id: "asc" }],
    take: LIST_MAX,
  });
  const overrides = rows.map((row) => overrideView(row, now.getTime())).filter((v) => v.state !== "ended");
  return { at: now.getTime(), overrides };
}

/** A limit an override can name, with the values it has now (one per distinct rule). */
export interface OverrideChoice {
  name: string;
  rules: { limit: number; windowMs: number; burst: number | null }[];
}

/** The limits a tenant's override can name (its effective limits anywhere), for the form. */
export async function overrideChoices(principal: Principal, slug: string): Promise<OverrideChoice[]> {
  await tenantFor(db(), principal, slug, "viewer");
  const tenant = (await latestSnapshot())?.tenants[slug];
  if (!tenant) return [];
  const sets = [
    tenant.limits,
    tenant.keyDefault,
    ...Object.values(tenant.keys).flatMap((k) => k.limits ?? []),
  ];
  const byName = new Map<string, Map<string, OverrideChoice["rules"][number]>>();
  for (const set of sets)
    for (const limit of [...set.unrouted, ...Object.values(set.routed).flat()]) {
      const { limit: value, windowMs, burst } = limit.rule;
      const rules = byName.get(limit.name) ?? new Map();
      rules.set(`${value}/${windowMs}/${burst}`, { limit: value, windowMs, burst });
      byName.set(limit.name, rules);
    }
  return [...byName]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, rules]) => ({ name, rules: [...rules.values()] }));
}
