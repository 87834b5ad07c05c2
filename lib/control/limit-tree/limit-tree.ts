import "server-only";
import { z } from "zod";
import type { Principal } from "@/lib/shared/principal";
import { NAME_PATTERN, NAME_RULE } from "@/lib/control/config/document";
import { ownerKey } from "@/lib/check/limiter/keys";
import { NotFoundError } from "@/lib/control/errors/errors";
import { tenantInForce } from "@/lib/control/counters/limits-in-force";
import { snapshotNow } from "@/lib/control/counters/snapshot-now";
import { listOutcome } from "@/lib/control/counters/list-outcome";
import { readCounters } from "@/lib/control/limit-tree/limit-tree-counters";
import { sourceFor, totalsSource, visitRows, type RowContext, type UsageRow } from "@/lib/usage/read/rows";
import { usageTenant } from "@/lib/control/data/usage/scope";
import { rowContext } from "@/lib/usage/read/context";
import { addCounts } from "@/lib/usage/types";
import { topOffenders } from "@/lib/usage/read/offenders";
import { RANGE_IDS, RANGES } from "@/lib/usage/ranges";
import type { TreeInputs } from "@/lib/control/limit-tree/nodes";
import { attribute } from "@/lib/control/limit-tree/attribution";
import { routesByKey, trafficOf } from "@/lib/control/limit-tree/traffic";
import { limitDenials, type LimitDenial } from "@/lib/usage/read/limit-denials";
import { logsOf, shapeOf } from "@/lib/control/limit-tree/shape";
import type { LimitTreeData } from "@/lib/control/limit-tree/types";
import { keyView, routeView, tenantView } from "@/lib/control/limit-tree/views";
import { safeText } from "@/lib/shared/safe-text";

// The data behind the limit tree chart, for one tenant the principal may read (viewer and
// up; others get "not found"). The limits are those /api/check enforces now: the newest
// version with the temporary overrides in force (snapshotNow, as the ops tools). Per
// refresh: the compiled shape from the config version already held, ONE counter read in Redis for the tenant, the range's usage rows for the
// rejections and the admitted rates, the rejections per denying limit (the recent minutes
// from Redis, older hours as the rollup stored them: the whole range, up to the hours'
// retention), and the subjects rejected most in the range (offenders are kept an hour).

const slug = z.string().regex(NAME_PATTERN, { error: NAME_RULE });

export const LimitTreeQuery = z.strictObject({
  tenant: slug,
  key: slug.optional(),
  route: safeText(z.string().min(1).max(2048, { error: "must be at most 2048 characters" })).optional(),
  range: z.enum(RANGE_IDS).default("15m"),
});
export type LimitTreeQuery = z.infer<typeof LimitTreeQuery>;

/** the top offenders are kept as long as the per-second data */
const SUBJECTS_SINCE_MS = 3_600_000;
const SUBJECTS_READ = 50;

/** The rows and denials of the view: the whole tenant's, one key's or one route's checks. */
function inView<T extends { keyId: string; route: string }>(
  list: readonly T[],
  keyId: string | null,
  route: string | null,
): T[] {
  return list.filter((r) => (keyId === null || r.keyId === keyId) && (route === null || r.route === route));
}

/**
 * The range's totals per key and route, summed as read (a minute at a time): the tree uses
 * nothing finer, and an hour of a busy tenant's seconds is millions of rows.
 */
async function pairTotals(tenantId: string, rangeMs: number, stepMs: number, now: number, ctx: RowContext) {
  const pairs = new Map<string, UsageRow>();
  await visitRows(tenantId, now - rangeMs, now + 1, totalsSource(sourceFor(stepMs)), ctx, rangeMs, (r) => {
    const id = `${r.keyId} ${r.route}`;
    const pair = pairs.get(id);
    if (pair) addCounts(pair, r);
    else pairs.set(id, { ...r });
  });
  return [...pairs.values()];
}

function usesOf(rows: readonly UsageRow[], route: string): Map<string, number> {
  const uses = new Map<string, number>();
  for (const r of rows) {
    if (r.route !== route) continue;
    uses.set(r.keyId, (uses.get(r.keyId) ?? 0) + r.allowed + r.rejected + r.shadowRejected + r.degraded);
  }
  return uses;
}

export async function limitTree(principal: Principal, query: LimitTreeQuery): Promise<LimitTreeData> {
  const ref = await usageTenant(principal, query.tenant);
  const current = await snapshotNow();
  const inForce = current && tenantInForce(current, ref.slug);
  if (!current || !inForce || inForce.tenant.id !== ref.id)
    throw new NotFoundError(`No tenant named ${query.tenant}.`);
  const { tenant } = inForce;
  const shape = shapeOf(inForce);
  const key = query.key === undefined ? null : shape.keysByName.get(query.key);
  if (key === undefined) throw new NotFoundError(`Tenant ${ref.slug} has no key named ${query.key}.`);
  const now = Date.now();
  const ctx = rowContext(now);
  const { rangeMs, stepMs } = RANGES[query.range];
  const [rows, { denials, since }, offenders] = await Promise.all([
    pairTotals(ref.id, rangeMs, stepMs, now, ctx),
    limitDenials(ctx, ref.id, now - rangeMs, now + 1),
    shape.subjects.length
      ? topOffenders(
          principal,
          ref.slug,
          now - Math.min(rangeMs, SUBJECTS_SINCE_MS),
          now + 1,
          SUBJECTS_READ,
          ctx,
        )
      : [],
  ]);
  const subjects = offenders
    .filter((o) => o.kind === "subject")
    .map((o) => ({ name: o.name, rejected: o.rejected }));
  const subjectOwners = subjects.map((s) => `s.${s.name}`);
  const counters = await readCounters(
    [...shape.ownerKeys, ...subjectOwners.map((o) => ownerKey(ref.id, o))],
    [...shape.logs, ...subjectOwners.flatMap((o) => logsOf(ref.id, shape.subjects, o))],
  );
  const route = key === null ? (query.route ?? null) : null;
  const viewRows = inView(rows, key?.id ?? null, route);
  const inputs: TreeInputs = {
    tenant,
    shape,
    counters,
    rejections: trafficOf(viewRows, (r) => r.rejected),
    attributed: attribute(shape, inView<LimitDenial>(denials, key?.id ?? null, route)),
    // shadow rejections were admitted: their units count
    admitted: trafficOf(rows, (r) => r.allowed + r.shadowRejected),
    rangeMs,
    routesOf: routesByKey(rows),
    subjects,
    listOf: (subject) => listOutcome(current.snapshot, tenant, subject),
  };
  const view =
    key !== null
      ? keyView(inputs, key)
      : query.route !== undefined
        ? routeView(inputs, query.route, usesOf(rows, query.route))
        : tenantView(inputs);
  return {
    tenant: ref.slug,
    plan: tenant.plan,
    configVersion: current.snapshot.version,
    view: { key: key?.name ?? null, route },
    range: query.range,
    nodes: view.nodes,
    keys: view.keys,
    attributedSince: since,
    counterReadMs: Math.round(counters.readMs * 10) / 10,
    generatedAt: now,
  };
}
