import type { LimitLine } from "@/lib/usage/read/dashboard-types";

// A limit drawn over the traffic of one key or route: its sustained rate in checks per
// bucket (limit × step / window), so it sits on the same axis as the stacked counts.
// Several limits of one name (a key's and the tenant's) are drawn once each by scope.

export interface LineSource {
  name: string;
  limit: number;
  windowMs: number;
  by: string;
  route: string | null;
}

export function limitLinesOf(limits: readonly LineSource[], stepMs: number, max = 4): LimitLine[] {
  const seen = new Set<string>();
  const lines: LimitLine[] = [];
  for (const l of limits) {
    const id = `${l.name}|${l.by}|${l.route ?? ""}`;
    if (seen.has(id)) continue;
    seen.add(id);
    lines.push({
      limit: l.name,
      perStep: (l.limit * stepMs) / l.windowMs,
      limitValue: l.limit,
      windowMs: l.windowMs,
    });
  }
  // the tightest first: those are the ones traffic meets
  return lines.sort((a, b) => a.perStep - b.perStep).slice(0, max);
}
