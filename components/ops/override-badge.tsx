import type { LimitOverride } from "@/lib/control/counters/check-now";
import { datePartsIn, formatDate, formatTimeOfDay } from "@/lib/shared/format-date";

// The temporary override a limit of the simulator or the lookup is under, beside its value:
// "override until 18:00 UTC" (with the date when it ends on another day), and a block or a
// disabled limit said as such. In the reader's time zone (account settings), named.

/** The end as a time of day when it is today in `zone`, else with its date. */
export function overrideEnd(endsAt: string, now: Date, zone = "UTC"): string {
  const sameDay = datePartsIn(new Date(endsAt), zone).day === datePartsIn(now, zone).day;
  return sameDay ? formatTimeOfDay(endsAt, false, zone) : formatDate(endsAt, zone);
}

export function OverrideBadge({ override, zone = "UTC" }: { override: LimitOverride; zone?: string }) {
  const what = override.value === "disabled" ? "disabled: " : override.value === 0 ? "blocked: " : "";
  const value =
    override.value === "disabled" ? "disabled" : override.value === 0 ? "0 (blocks)" : String(override.value);
  return (
    <span
      className="badge badge-override"
      data-testid="override-badge"
      title={`Temporary override ${override.id}: ${value} until ${formatDate(override.endsAt, zone)}`}
    >
      {what}override until {overrideEnd(override.endsAt, new Date(), zone)}
    </span>
  );
}
