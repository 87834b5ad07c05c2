import { ReferenceArea } from "recharts";

// The newest bucket is still filling: its count is only what arrived so far, which reads as
// a drop. Shade it and say so, instead of letting the traffic seem to fall off.

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
