import type { LimitReading, TreeNode } from "@/lib/control/limit-tree/types";

// What binds a check's chain (plan -> tenant -> key -> route): the enforce limit with the
// smallest share of its capacity left, so 300 left of 10,000 a minute (3 %) binds before
// 2 left of 10 a second (20 %): units left of limits with other windows do not compare.
// Equal shares (two limits spent, say) go to the one that runs out first at the rate its
// counter filled over the range; then to the first on the chain. Pure.

export type Binding = NonNullable<TreeNode["binding"]>;

export interface ChainLimit {
  reading: LimitReading;
  level: Binding["level"];
  /** units per ms its counter took over the range (admitted checks through its owner) */
  ratePerMs: number;
}

/** A limit's share of its capacity left, 0..1: a blocked limit (capacity 0) has none. */
export function shareLeft(reading: LimitReading): number {
  if (reading.capacity <= 0) return 0;
  return Math.min(1, Math.max(0, reading.remaining / reading.capacity));
}

/** Ms until it is spent at `ratePerMs`: 0 when spent, Infinity when nothing fills it. */
export function msToExhaustion(reading: LimitReading, ratePerMs: number): number {
  if (reading.remaining <= 0) return 0;
  return ratePerMs > 0 ? reading.remaining / ratePerMs : Infinity;
}

// shares computed from fractional levels: closer than this is a tie
const SAME_SHARE = 1e-9;

function bindsBefore(a: ChainLimit, b: ChainLimit): boolean {
  const aShare = shareLeft(a.reading);
  const bShare = shareLeft(b.reading);
  if (Math.abs(aShare - bShare) > SAME_SHARE) return aShare < bShare;
  return msToExhaustion(a.reading, a.ratePerMs) < msToExhaustion(b.reading, b.ratePerMs);
}

/** The chain's binding limit among those enforced now; null when none is. */
export function bindingOf(chain: readonly ChainLimit[]): TreeNode["binding"] {
  let best: ChainLimit | null = null;
  for (const l of chain) {
    if (l.reading.mode !== "enforce" || l.reading.override?.value === "disabled") continue;
    if (best === null || bindsBefore(l, best)) best = l;
  }
  if (best === null) return null;
  return {
    level: best.level,
    limit: best.reading.name,
    route: best.reading.route,
    remaining: best.reading.remaining,
    share: shareLeft(best.reading),
  };
}
