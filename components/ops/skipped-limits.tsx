import type { SkippedLimit } from "@/lib/control/data/limit-report";
import { OverrideBadge } from "@/components/ops/override-badge";

// The limits a check meets but that were not evaluated: an owner the query did not give (a
// subject), or a temporary override that disables the limit (with its badge).

export function SkippedLimits({ skipped, label }: { skipped: readonly SkippedLimit[]; label: string }) {
  if (skipped.length === 0) return null;
  return (
    <p className="muted" data-testid="skipped-limits">
      {label}:{" "}
      {skipped.map((s, i) => (
        <span key={`${s.name}|${i}`}>
          {i > 0 ? "; " : ""}
          {s.name} {s.override ? <OverrideBadge override={s.override} /> : `(${s.reason})`}
        </span>
      ))}
      .
    </p>
  );
}
