import "server-only";
import type { SecondRow } from "@/lib/control/alerts/conditions";
import type { ActiveRule } from "@/lib/control/data/alerts/engine";
import { visitRows, type RowContext, type UsageRow } from "@/lib/usage/read/rows";

// A tenant's per-second rows for one evaluation pass, with only the detail its rules look
// at: the key where a rule or a measured limit tells keys apart, the route where one names
// a route; otherwise the rows of a second merge into one (rows.ts' RowGrouping). Read a
// minute at a time and merged by the store as read: an hour of a busy tenant has millions
// of rows per second, key and route, and the evaluator reads every tenant with rules on
// every pass, with nobody watching.

/** What the conditions compare: keys, routes, both or neither. */
export interface RowDetail {
  keys: boolean;
  routes: boolean;
}

type RuleOf = Pick<ActiveRule, "kind" | "keyId" | "route" | "limitName">;
/** what of a measurable limit (lib/usage/limit-candidates.ts) the conditions compare */
type LimitOf = {
  limit: { name: string; by: string; route: string | null };
  keyIds: readonly string[] | null;
};

export function detailFor(rules: readonly RuleOf[], limits: readonly LimitOf[]): RowDetail {
  const measured = limits.filter((c) =>
    rules.some((r) => r.kind === "utilization" && r.limitName === c.limit.name),
  );
  return {
    keys:
      rules.some((r) => r.keyId !== null) || measured.some((c) => c.limit.by === "key" || c.keyIds !== null),
    routes: rules.some((r) => r.route !== null) || measured.some((c) => c.limit.route !== null),
  };
}

export async function readAlertRows(
  tenantId: string,
  from: number,
  to: number,
  ctx: RowContext,
  detail: RowDetail,
): Promise<SecondRow[]> {
  // the store merges what the rules do not tell apart (one row per second and kept detail)
  const rows: SecondRow[] = [];
  const grouping = { byKey: detail.keys, byRoute: detail.routes };
  const keep = ({ t, keyId, route, allowed, rejected, degraded }: UsageRow): void => {
    rows.push({ t, keyId, route, allowed, rejected, degraded });
  };
  await visitRows(tenantId, from, to, "seconds", ctx, 1_000, keep, grouping);
  return rows;
}
