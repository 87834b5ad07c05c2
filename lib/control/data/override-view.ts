import "server-only";
import type { PublishedOverride } from "@/lib/check/published/published";
import type { Tx } from "@/lib/control/data/tx";

// One override as the API, the dashboard and the audit log show it, and as servers get it.

export const OVERRIDE_SELECT = {
  id: true,
  subject: true,
  limitName: true,
  limit: true,
  startsAt: true,
  endsAt: true,
  reason: true,
  createdBy: true,
  createdAt: true,
  endedAt: true,
  endedBy: true,
  tenant: { select: { slug: true } },
  apiKey: { select: { name: true } },
} as const;

export interface OverrideRow {
  id: string;
  subject: string | null;
  limitName: string;
  limit: number | null;
  startsAt: Date;
  endsAt: Date;
  reason: string;
  createdBy: string;
  createdAt: Date;
  endedAt: Date | null;
  endedBy: string | null;
  tenant: { slug: string };
  apiKey: { name: string } | null;
}

export type OverrideState = "upcoming" | "active" | "ended";

export interface OverrideView {
  id: string;
  tenant: string;
  key: string | null;
  subject: string | null;
  limit: string;
  /** the new limit (0 blocks) or "disabled" */
  value: number | "disabled";
  startsAt: string;
  /** when it ends (or ended: an override ended early ends at endedAt) */
  endsAt: string;
  /** the end it was created with */
  plannedEndsAt: string;
  reason: string;
  createdBy: string;
  createdAt: string;
  endedAt: string | null;
  endedBy: string | null;
  state: OverrideState;
}

/** The end that counts: when it was ended early, else its planned end. */
export const effectiveEnd = (row: Pick<OverrideRow, "endsAt" | "endedAt">): Date =>
  row.endedAt !== null && row.endedAt < row.endsAt ? row.endedAt : row.endsAt;

export function overrideState(
  row: Pick<OverrideRow, "startsAt" | "endsAt" | "endedAt">,
  now: number,
): OverrideState {
  const end = effectiveEnd(row).getTime();
  if (end <= now || end <= row.startsAt.getTime()) return "ended";
  return row.startsAt.getTime() > now ? "upcoming" : "active";
}

export function overrideView(row: OverrideRow, now: number): OverrideView {
  return {
    id: row.id,
    tenant: row.tenant.slug,
    key: row.apiKey?.name ?? null,
    subject: row.subject,
    limit: row.limitName,
    value: row.limit === null ? "disabled" : row.limit,
    startsAt: row.startsAt.toISOString(),
    endsAt: effectiveEnd(row).toISOString(),
    plannedEndsAt: row.endsAt.toISOString(),
    reason: row.reason,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
    endedBy: row.endedBy,
    state: overrideState(row, now),
  };
}

/** Overrides neither ended nor past their end at `now`, in start order (of these tenants only, when given). */
export function unendedOverrideRows(tx: Tx, now: number, onlyTenantIds?: string[]) {
  return tx.override.findMany({
    where: {
      ...(onlyTenantIds ? { tenantId: { in: onlyTenantIds } } : {}),
      endsAt: { gt: new Date(now) },
      OR: [{ endedAt: null }, { endedAt: { gt: new Date(now) } }],
    },
    select: OVERRIDE_SELECT,
    orderBy: [{ startsAt: "asc" }, { id: "asc" }],
  });
}

/** Every override not ended by `now`, as servers apply them (compile-published.ts). */
export async function publishedOverrides(
  tx: Tx,
  now: number,
  onlyTenantIds?: string[],
): Promise<PublishedOverride[]> {
  const rows = await unendedOverrideRows(tx, now, onlyTenantIds);
  return rows
    .filter((row) => overrideState(row, now) !== "ended")
    .map((row) => ({
      id: row.id,
      tenant: row.tenant.slug,
      key: row.apiKey?.name ?? null,
      subject: row.subject,
      limit: row.limitName,
      value: row.limit,
      startsAt: row.startsAt.getTime(),
      endsAt: effectiveEnd(row).getTime(),
    }));
}
