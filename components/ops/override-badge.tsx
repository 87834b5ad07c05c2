import type { LimitOverride } from "@/lib/control/data/check-now";

// The temporary override a limit of the simulator or the lookup is under, beside its value:
// "override until 18:00 UTC" (with the date when it ends on another day), and a block or a
// disabled limit said as such. The page renders on the server: times are UTC.

function until(endsAt: string, now: Date): string {
  const iso = new Date(endsAt).toISOString();
  const time = `${iso.slice(11, 16)} UTC`;
  return iso.slice(0, 10) === now.toISOString().slice(0, 10) ? time : `${iso.slice(0, 10)} ${time}`;
}

export function OverrideBadge({ override }: { override: LimitOverride }) {
  const what = override.value === "disabled" ? "disabled: " : override.value === 0 ? "blocked: " : "";
  const value =
    override.value === "disabled" ? "disabled" : override.value === 0 ? "0 (blocks)" : String(override.value);
  return (
    <span
      className="badge badge-override"
      data-testid="override-badge"
      title={`Temporary override ${override.id}: ${value} until ${override.endsAt}`}
    >
      {what}override until {until(override.endsAt, new Date())}
    </span>
  );
}
