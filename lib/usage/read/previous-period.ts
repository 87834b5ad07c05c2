import "server-only";
import type { Principal } from "@/lib/shared/principal";
import type { RowContext } from "@/lib/usage/read/rows";
import { sourceFor } from "@/lib/usage/read/rows";
import { readCompact } from "@/lib/usage/read/scoped-reader";
import type { PreviousPeriod } from "@/lib/usage/read/dashboard-types";
import { alignPrevious, decided, previousWindow } from "@/lib/usage/read/previous-align";
import { acrossTenants } from "@/lib/usage/read/across-tenants";

// The usage page's comparison: the period of the same length just before the one shown,
// read with one more ranged read (the compact reader, series only), its checks laid on the
// current buckets so the chart can draw it as a faded series over the same axis.

export async function previousPeriod(
  principal: Principal,
  scope: { tenant?: string; key?: string; route?: string },
  current: { from: number; to: number; stepMs: number },
  ctx: RowContext,
): Promise<PreviousPeriod> {
  const window = previousWindow(current, ctx.now - ctx.secondsRetentionMs);
  const { series } = await readCompact(
    principal,
    { ...scope, from: window.from, to: window.to, source: sourceFor(window.stepMs), stepMs: window.stepMs },
    ctx,
  );
  return summed(series, current, window);
}

/** The same for the index past 50 tenants, read across tenants at once (across-tenants.ts). */
export async function previousAcrossTenants(
  principal: Principal,
  current: { from: number; to: number; stepMs: number },
  ctx: RowContext,
): Promise<PreviousPeriod> {
  const window = previousWindow(current, ctx.now - ctx.secondsRetentionMs);
  const read = await acrossTenants(principal, window.from, window.to, window.stepMs, ctx, { tenants: false });
  return summed(read.series, current, { ...window, stepMs: read.stepMs });
}

function summed(
  series: Parameters<typeof alignPrevious>[0],
  current: { from: number; to: number; stepMs: number },
  window: { from: number; to: number; stepMs: number; shiftMs: number },
): PreviousPeriod {
  let checks = 0;
  let rejected = 0;
  for (const row of series) {
    checks += decided(row);
    rejected += row.rejected;
  }
  return {
    from: window.from,
    to: window.to,
    stepMs: window.stepMs,
    checks: alignPrevious(series, current, window),
    totals: { checks, rejected },
  };
}
