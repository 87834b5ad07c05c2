import { formatDuration } from "@/lib/shared/duration";
import { formatSpan } from "@/lib/shared/format-span";
import { formatWhole } from "@/lib/shared/format-count";

// A limit's live counter as a bar and "used / limit", shared by the simulator and the lookup.

export interface CounterFigures {
  /** a temporary override of 0 blocks every check: there is nothing to count */
  override?: { value: number | "disabled" } | null;
  limit: number;
  windowMs: number;
  burst: number | null;
  remaining: number;
  resetMs: number;
}

export function ruleText(f: {
  limit: number;
  windowMs: number;
  algorithm: string;
  by: string;
  mode: string;
}): string {
  return `${f.limit.toLocaleString("en")} / ${formatDuration(f.windowMs)} · ${f.algorithm} · per ${f.by}${f.mode === "shadow" ? " · shadow" : ""}`;
}

export function LimitCounter({ figures }: { figures: CounterFigures }) {
  if (figures.override?.value === 0)
    return (
      <span className="counter">
        <strong className="denied">blocked</strong>
        <span className="muted"> · every check denied for {formatSpan(figures.resetMs)}</span>
      </span>
    );
  const capacity = Math.max(figures.burst ?? figures.limit, 1);
  const used = Math.max(0, capacity - figures.remaining);
  const percent = Math.min(100, Math.round((used / capacity) * 100));
  return (
    <span className="counter">
      <Meter percent={percent} label="used" />
      <span className="mono">
        {formatWhole(used)} / {formatWhole(capacity)} used
      </span>
      {figures.resetMs > 0 && <span className="muted"> · full again in {formatSpan(figures.resetMs)}</span>}
    </span>
  );
}

/** A used-share bar (0-100 %): amber from 80 %, red when full. Also the Limits tab's "Now". */
export function Meter({ percent, label }: { percent: number; label: string }) {
  return (
    <span
      className="meter"
      role="meter"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-label={label}
    >
      <span
        style={{ width: `${percent}%` }}
        className={percent >= 100 ? "full" : percent >= 80 ? "high" : ""}
      />
    </span>
  );
}
