import type { UsagePoint } from "@/lib/usage/types";
import { LeaseChart } from "@/components/charts/lease-chart";
import { formatWhole } from "@/lib/shared/format-count";

// The leases of the tenant's concurrency limits (drawn only for a tenant that has one):
// how many checks took a slot, how many gave it back with POST /api/check/release, and
// how many held it until the limit's window ran out, which usually means a caller that
// does not release (a crash, a missing finally).

export function LeasePanel({ points, stepMs }: { points: UsagePoint[]; stepMs: number }) {
  const totals = points.reduce(
    (sum, p) => ({
      acquired: sum.acquired + p.leasesAcquired,
      released: sum.released + p.leasesReleased,
      expired: sum.expired + p.leasesExpired,
    }),
    { acquired: 0, released: 0, expired: 0 },
  );
  return (
    <section className="panel" data-testid="lease-panel">
      <h2>Leases</h2>
      <p className="muted" data-testid="lease-totals">
        {`${formatWhole(totals.acquired)} acquired, ${formatWhole(totals.released)} released, ${formatWhole(totals.expired)} expired`}{" "}
        in this range. An expired lease was not released before its limit&apos;s window ran out: it is counted
        when it expires.
      </p>
      {totals.acquired + totals.released + totals.expired > 0 ? (
        <LeaseChart points={points} stepMs={stepMs} />
      ) : (
        <p className="muted" data-testid="lease-quiet">
          No lease was taken, released or expired in this range.
        </p>
      )}
    </section>
  );
}
