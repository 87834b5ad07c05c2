import type { SkippedLimit } from "@/lib/control/counters/limit-report";
import { OverrideBadge } from "@/components/ops/override-badge";

// The limits a check meets but that were not evaluated: an owner the query did not give (a
// subject), or a temporary override that disables the limit (with its badge).

export function SkippedLimits({
  skipped,
  label,
  zone = "UTC",
}: {
  skipped: readonly SkippedLimit[];
  label: string;
  /** the reader's time zone, for an override's end */
  zone?: string;
}) {
  if (skipped.length === 0) return null;
  return (
    <p className="muted" data-testid="skipped-limits">
      {label}:{" "}
      {skipped.map((s, i) => (
        <span key={`${s.name}|${i}`}>
          {i > 0 ? "; " : ""}
          {s.name} {s.override ? <OverrideBadge override={s.override} zone={zone} /> : `(${s.reason})`}
        </span>
      ))}
      .
    </p>
  );
}
