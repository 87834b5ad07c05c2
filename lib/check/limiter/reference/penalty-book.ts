import type { Penalty } from "@/lib/shared/limit-types";
import { nextBlockMs } from "@/lib/check/limiter/penalty-args";

// The reference model's penalties (docs/algorithms.md, Penalties), kept apart from the
// algorithms: per limit and identity, the last block's end, length and when it was set.

interface Block {
  ends: number;
  length: number;
  set: number;
}

export interface PenaltyVerdict {
  /** the limit's reason after its penalty */
  reason: "ok" | "rate_limited" | "cost_exceeds_capacity" | "penalty";
  /** ms until the block ends (reason penalty) */
  retryMs: number | null;
  /** a block this check starts, to record unless dry */
  starts: Block | null;
}

export class PenaltyBook {
  private readonly blocks = new Map<string, Block>();

  /** What the penalty makes of the limit's own `reason` at `now`. */
  look(key: string, penalty: Penalty, reason: PenaltyVerdict["reason"], now: number): PenaltyVerdict {
    const last = this.blocks.get(key) ?? null;
    if (last !== null && last.ends > now) {
      if (reason === "cost_exceeds_capacity") return { reason, retryMs: null, starts: null };
      return { reason: "penalty", retryMs: last.ends - now, starts: null };
    }
    if (reason !== "rate_limited") return { reason, retryMs: null, starts: null };
    const length = nextBlockMs(penalty, last, now);
    return { reason: "penalty", retryMs: length, starts: { ends: now + length, length, set: now } };
  }

  record(key: string, block: Block): void {
    this.blocks.set(key, block);
  }

  lift(key: string): void {
    this.blocks.delete(key);
  }
}
