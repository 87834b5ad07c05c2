import type { LimitOverride } from "@/lib/control/counters/check-now";
import { formatDate, formatTimeOfDay } from "@/lib/shared/format-date";

// The temporary override a limit of the simulator or the lookup is under, beside its value:
// "override until 18:00 UTC" (with the date when it ends on another day), and a block or a
// disabled limit said as such. The page renders on the server: times are UTC.

function until(endsAt: string, now: Date): string {
  const sameDay = new Date(endsAt).toISOString().slice(0, 10) === now.toISOString().slice(0, 10);
  return sameDay ? formatTimeOfDay(endsAt) : formatDate(endsAt);
}

export function OverrideBadge({ override }: { override: LimitOverride }) {
  const what = override.value === "disabled" ? "disabled: " : override.value === 0 ? "blocked: " : "";
  const value =
    override.value === "disabled" ? "disabled" : override.value === 0 ? "0 (blocks)" : String(override.value);
  return (
    <span
      className="badge badge-override"
      data-testid="override-badge"
      title={`Temporary override ${override.id}: ${value} until ${formatDate(override.endsAt)}`}
    >
      {what}override until {until(override.endsAt, new Date())}
    </span>
  );
}
