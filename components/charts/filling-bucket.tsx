import { ReferenceArea } from "recharts";

// The newest bucket is still filling: its count is only what arrived so far, which reads as
// a drop. Shade it and say so, instead of letting the traffic seem to fall off.

/** Start of the bucket `now` falls in, when that bucket is inside the series. */
export function fillingBucketStart(points: readonly { t: number }[], stepMs: number, now: number): number | null {
  const last = points[points.length - 1];
  if (!last || now < last.t || now >= last.t + stepMs) return null;
  return last.t;
}

export function FillingBucket({ from, stepMs }: { from: number | null; stepMs: number }) {
  if (from === null) return null;
  return (
    <ReferenceArea
      x1={from - stepMs}
      x2={from}
      fill="var(--muted)"
      fillOpacity={0.12}
      ifOverflow="extendDomain"
      label={{ value: "filling", position: "insideTopRight", fontSize: 10, fill: "var(--muted)" }}
    />
  );
}
