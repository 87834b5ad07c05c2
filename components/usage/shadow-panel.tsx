import type { UsagePoint } from "@/lib/usage/types";
import { ShadowChart } from "@/components/charts/shadow-chart";
import { formatWhole } from "@/lib/shared/format-count";

// The would-be rejections of shadow limits. An empty chart said nothing: a tenant with no
// shadow limit is told why there is nothing to draw and how to try one; with shadow limits
// but no would-be rejection in the range, one line says so instead of an empty frame.

export function ShadowPanel({
  points,
  stepMs,
  shadowLimits,
}: {
  points: UsagePoint[];
  stepMs: number;
  /** the tenant's shadow limits; null on the overview */
  shadowLimits: number | null;
}) {
  const total = points.reduce((sum, p) => sum + p.shadowRejected, 0);
  return (
    <section className="panel" data-testid="shadow-panel">
      <h2>Shadow limits: would-be rejections</h2>
      {total > 0 ? (
        <ShadowChart points={points} stepMs={stepMs} />
      ) : shadowLimits === 0 ? (
        <p className="muted" data-testid="shadow-none">
          This tenant has no limit in shadow mode, so there is nothing to draw. Set a limit&apos;s Mode to
          shadow to see what it would reject without denying any check.
        </p>
      ) : (
        <p className="muted" data-testid="shadow-quiet">
          No check in this range would have been rejected by a shadow limit
          {shadowLimits === null ? "" : ` (${formatWhole(shadowLimits)} in shadow mode)`}.
        </p>
      )}
    </section>
  );
}
