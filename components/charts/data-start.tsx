import { ReferenceArea, ReferenceLine } from "recharts";

// "data starts here": on a new installation (or a new tenant) a 24 h or 7 d chart is mostly
// empty buckets from before anything was recorded, which read as a quiet day. The stretch
// before is shaded and the line says where recording began.

export function DataStart({ at, from, to }: { at: number | null; from: number; to: number }) {
  if (at === null) return null;
  // a tenant made minutes ago starts inside the newest bucket, past the axis' last point: the
  // mark goes on that bucket (a line beyond the axis' domain is not drawn)
  const x = Math.min(at, to);
  return (
    <>
      <ReferenceArea x1={from} x2={x} fill="var(--muted)" fillOpacity={0.08} ifOverflow="hidden" />
      <ReferenceLine
        x={x}
        stroke="var(--muted)"
        strokeDasharray="4 3"
        label={{ value: "data starts here", position: "insideTopLeft", fontSize: 10, fill: "var(--muted)" }}
      />
    </>
  );
}
