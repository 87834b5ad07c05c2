import { formatCount } from "@/components/charts/format";

// Decisions made while Redis was unreachable answer by the fail-open/closed policy, not
// by the limits: say so above everything else when any happened in the range shown.

export function DegradedBanner({ degraded, where }: { degraded: number; where: string }) {
  if (degraded <= 0) return null;
  return (
    <div className="banner banner-warn" role="status" data-testid="degraded-banner">
      <strong>{formatCount(degraded)} degraded decisions</strong> {where}: Redis could not be reached, so
      these checks were answered by the fail-open or fail-closed policy instead of the limits.
    </div>
  );
}
