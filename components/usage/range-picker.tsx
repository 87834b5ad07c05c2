import Link from "next/link";
import { RANGE_IDS, RANGES, type RangeId } from "@/lib/usage/ranges";
import { stepLabel } from "@/components/charts/format";

// 15 min / 1 h / 24 h / 7 d / 30 d as links: the range lives in the URL, so a reload or a
// shared link shows the same view. Each range has its own resolution (shown beside it).

export function RangePicker({
  current,
  hrefFor,
  customStepMs,
}: {
  current: RangeId;
  hrefFor: (range: RangeId) => string;
  /** a custom range is shown (drawn at this step): no preset is current */
  customStepMs?: number;
}) {
  const custom = customStepMs !== undefined;
  return (
    <nav
      aria-label="Time range"
      className="range-picker"
      style={{ display: "flex", gap: 8, alignItems: "center", flexWrap: "wrap" }}
    >
      {RANGE_IDS.map((id) => (
        <Link
          key={id}
          href={hrefFor(id)}
          aria-current={id === current && !custom ? "page" : undefined}
          style={{
            padding: "2px 10px",
            borderRadius: 6,
            border: "1px solid #cbd5e0",
            background: id === current && !custom ? "#2b6cb0" : "transparent",
            color: id === current && !custom ? "white" : "inherit",
          }}
        >
          {RANGES[id].label}
        </Link>
      ))}
      <span className="muted" data-testid="resolution">
        resolution: {stepLabel(customStepMs ?? RANGES[current].stepMs).replace("per ", "")}
      </span>
    </nav>
  );
}
