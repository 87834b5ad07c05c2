import "server-only";
import { STALL_SPANS } from "@/lib/shared/stall-spans";

// When this process's event loop could not run: a 2 ms timer notes how late each of its
// ticks fired, and keeps the recent late spans. A check answered later than its timeout
// allows is then told apart: the time it spent with the loop stalled (this process's own
// CPU, a GC pause, the machine's scheduler) is not time the check path waited on anything.
// A loaded machine can delay any answer; a wait on the check path (a queue, a reconnect, a
// timer armed late) is a defect. Started by the front (lean-router.ts), never per check.

// 2 ms, not 10: a 10 ms tick missed stalls shorter than itself and up to 10 ms of each
// longer one, which left answers 8-34 ms late unexplained in the failover tests. Its cost
// is 500 timer callbacks a second, on the order of a millisecond of CPU a second.
const TICK_MS = 2;
/** lateness below this is a timer's ordinary jitter, not a stall */
const STALL_MIN_MS = 2;
/** spans kept: at least 8 s of them (a tick every 2 ms), far longer on a healthy machine */
const SPANS = STALL_SPANS;

/**
 * A finer watch than the front's: a stall that began between two ticks is noted from when
 * the next tick was due, so up to a tick of it is missed, and a wakeup's wait shorter than
 * the tick is missed whole. A test client may pay for a 1 ms tick; the front keeps 2 ms.
 */
export interface StallWatchOptions {
  tickMs: number;
  minLateMs: number;
  spans: number;
}

const FRONT: StallWatchOptions = { tickMs: TICK_MS, minLateMs: STALL_MIN_MS, spans: SPANS };

export class LoopStalls {
  private readonly starts: Float64Array;
  private readonly ends: Float64Array;
  private readonly tickMs: number;
  private readonly minLateMs: number;
  private readonly size: number;
  private count = 0;
  private next = 0;
  private expected = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly now: () => number = () => performance.now(),
    options: StallWatchOptions = FRONT,
  ) {
    this.tickMs = options.tickMs;
    this.minLateMs = options.minLateMs;
    this.size = options.spans;
    this.starts = new Float64Array(this.size);
    this.ends = new Float64Array(this.size);
  }

  start(): void {
    if (this.timer) return;
    this.expected = this.now() + this.tickMs;
    this.timer = setInterval(() => this.tick(), this.tickMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One tick: the span from when it was due to now, if late. Exposed for tests. */
  tick(): void {
    const now = this.now();
    if (now - this.expected >= this.minLateMs) this.note(this.expected, now);
    this.expected = now + this.tickMs;
  }

  /** Records [from, to] as a span the loop could not run. */
  note(from: number, to: number): void {
    this.starts[this.next] = from;
    this.ends[this.next] = to;
    this.next = (this.next + 1) % this.size;
    if (this.count < this.size) this.count++;
  }

  /** Milliseconds of [from, to] the loop spent stalled, as far as the kept spans reach. */
  stalledWithin(from: number, to: number): number {
    let total = 0;
    for (let i = 0; i < this.count; i++) {
      const start = Math.max(from, this.starts[i] as number);
      const end = Math.min(to, this.ends[i] as number);
      if (end > start) total += end - start;
    }
    // a stall still under way when the answer went out: the tick has not run yet
    const pending = this.now() - this.expected;
    if (pending >= this.minLateMs)
      total += Math.max(0, Math.min(to, this.now()) - Math.max(from, this.expected));
    return total;
  }

  /**
   * The kept spans that end after `from`, oldest first, a stall under way included (read
   * right after a stall, before the tick noted it). Read on demand: nothing per check.
   */
  spansSince(from: number): Array<[number, number]> {
    const spans: Array<[number, number]> = [];
    const oldest = this.count < this.size ? 0 : this.next;
    for (let k = 0; k < this.count; k++) {
      const i = (oldest + k) % this.size;
      const end = this.ends[i] as number;
      if (end > from) spans.push([this.starts[i] as number, end]);
    }
    const now = this.now();
    if (now - this.expected >= this.minLateMs && now > from) spans.push([this.expected, now]);
    return spans;
  }
}

export type LateCause = "starved" | "waited";

/**
 * Why an answer took `elapsedMs` (from `startedAt`) beyond `boundMs`: "starved" when the
 * loop's stalls in that time account for the excess, else "waited".
 */
export function lateCause(
  stalls: LoopStalls,
  startedAt: number,
  elapsedMs: number,
  boundMs: number,
): LateCause {
  const stalled = stalls.stalledWithin(startedAt, startedAt + elapsedMs);
  return elapsedMs - stalled <= boundMs ? "starved" : "waited";
}

export const loopStalls = new LoopStalls();
