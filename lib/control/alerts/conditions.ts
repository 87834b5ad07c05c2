// Alert conditions, pure functions of per-second usage rows (lib/usage/read/rows.ts at
// "seconds"), so they can be tested without stores. `now` is the end of the last second
// counted (exclusive). A condition "holds for D" when it holds at every second of the last D.

export interface SecondRow {
  t: number;
  keyId: string;
  route: string;
  allowed: number;
  rejected: number;
  degraded: number;
}

export interface RowFilter {
  keyId: string | null;
  route: string | null;
}

export interface Verdict {
  holds: boolean;
  /** the measured value: percent for utilization and rates, a count for degraded */
  value: number;
  /** which key the value is of (by: key limits), else null */
  owner: string | null;
}

function matches(row: SecondRow, filter: RowFilter): boolean {
  return (
    (filter.keyId === null || row.keyId === filter.keyId) &&
    (filter.route === null || row.route === filter.route)
  );
}

/** Rejected share of the checks answered over [now - D, now), in percent. */
export function rejectionRate(
  rows: readonly SecondRow[],
  filter: RowFilter,
  now: number,
  forSeconds: number,
  thresholdPct: number,
): Verdict {
  let allowed = 0;
  let rejected = 0;
  for (const r of rows)
    if (r.t >= now - forSeconds * 1000 && r.t < now && matches(r, filter)) {
      allowed += r.allowed;
      rejected += r.rejected;
    }
  const total = allowed + rejected;
  const value = total === 0 ? 0 : (100 * rejected) / total;
  return { holds: total > 0 && value > thresholdPct, value, owner: null };
}

/** Degraded decisions (answered without the store) over [now - D, now). */
export function degradedCount(
  rows: readonly SecondRow[],
  filter: RowFilter,
  now: number,
  forSeconds: number,
): Verdict {
  let value = 0;
  for (const r of rows)
    if (r.t >= now - forSeconds * 1000 && r.t < now && matches(r, filter)) value += r.degraded;
  return { holds: value > 0, value, owner: null };
}

export interface MeasuredLimit {
  limit: number;
  windowMs: number;
  /** the limit counts per key (each key has its own budget) */
  perKey: boolean;
  /** key ids it applies to, or null for all */
  keyIds: readonly string[] | null;
  /** the route it applies to, or null for all */
  route: string | null;
}

/**
 * Utilization of a limit: admitted checks in its trailing window over its limit, in percent,
 * at each second of [now - D, now). Holds when, for one owner (the tenant, or one key of a
 * per-key limit), it stayed above the threshold at every one of those seconds. The value is
 * that owner's lowest utilization in the stretch (or the highest owner's when none held).
 */
export function utilization(
  rows: readonly SecondRow[],
  limit: MeasuredLimit,
  filter: RowFilter,
  now: number,
  forSeconds: number,
  thresholdPct: number,
): Verdict {
  const windowS = Math.max(1, Math.ceil(limit.windowMs / 1000));
  const start = now / 1000 - forSeconds - windowS;
  const span = forSeconds + windowS;
  const perOwner = new Map<string, Float64Array>();
  for (const r of rows) {
    if (!matches(r, filter) || (limit.route !== null && r.route !== limit.route)) continue;
    if (limit.keyIds !== null && !limit.keyIds.includes(r.keyId)) continue;
    const slot = Math.floor(r.t / 1000 - start);
    if (slot < 0 || slot >= span) continue;
    const owner = limit.perKey ? r.keyId : "";
    let series = perOwner.get(owner);
    if (!series) perOwner.set(owner, (series = new Float64Array(span)));
    series[slot] = (series[slot] ?? 0) + r.allowed;
  }
  let best: Verdict = { holds: false, value: 0, owner: null };
  for (const [owner, series] of perOwner) {
    let inWindow = 0;
    let lowest = Infinity;
    for (let i = 0; i < span; i++) {
      inWindow += series[i] ?? 0;
      if (i >= windowS) inWindow -= series[i - windowS] ?? 0;
      if (i >= windowS) lowest = Math.min(lowest, (100 * inWindow) / limit.limit);
    }
    const value = lowest === Infinity ? 0 : lowest;
    const holds = value > thresholdPct;
    if ((holds && !best.holds) || (holds === best.holds && value > best.value))
      best = { holds, value, owner: limit.perKey ? owner : null };
  }
  return best;
}
