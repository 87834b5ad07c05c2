import { formatCount } from "@/components/charts/format";

// A tiny inline trend: checks per bucket as a line, rejections as bars under it. Plain SVG
// (no chart library) so a table of keys stays cheap to render.

const W = 96;
const H = 24;

export function Sparkline({
  values,
  rejected,
  label,
}: {
  values: readonly number[];
  rejected: readonly number[];
  label: string;
}) {
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? W / (values.length - 1) : W;
  const y = (v: number) => H - 1 - (v / max) * (H - 2);
  const line = values
    .map((v, i) => `${i === 0 ? "M" : "L"}${(i * step).toFixed(1)},${y(v).toFixed(1)}`)
    .join("");
  const total = values.reduce((a, b) => a + b, 0);
  return (
    <svg
      width={W}
      height={H}
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={`${label}: ${formatCount(total)} checks over the range`}
      data-testid="sparkline"
      style={{ display: "block", overflow: "visible" }}
    >
      {rejected.map((r, i) =>
        r > 0 ? (
          <rect
            key={i}
            x={i * step - 1}
            y={y(r)}
            width={2}
            height={H - 1 - y(r)}
            fill="var(--danger, #c53030)"
            opacity={0.7}
          />
        ) : null,
      )}
      <path d={line} fill="none" stroke="var(--accent, #2b6cb0)" strokeWidth={1.5} />
    </svg>
  );
}
