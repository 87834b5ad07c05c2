import "server-only";

// When this process's event loop could not run: a 10 ms timer notes how late each of its
// ticks fired, and keeps the recent late spans. A check answered later than its timeout
// allows is then told apart: the time it spent with the loop stalled (this process's own
// CPU, a GC pause, the machine's scheduler) is not time the check path waited on anything.
// A loaded machine can delay any answer; a wait on the check path (a queue, a reconnect, a
// timer armed late) is a defect. Started by the front (lean-router.ts), never per check.

const TICK_MS = 10;
/** lateness below this is a timer's ordinary jitter, not a stall */
const STALL_MIN_MS = 2;
/** spans kept: far more than a few seconds of stalls on a loaded machine */
const SPANS = 1_024;

export class LoopStalls {
  private readonly starts = new Float64Array(SPANS);
  private readonly ends = new Float64Array(SPANS);
  private count = 0;
  private next = 0;
  private expected = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly now: () => number = () => performance.now()) {}

  start(): void {
    if (this.timer) return;
    this.expected = this.now() + TICK_MS;
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One tick: the span from when it was due to now, if late. Exposed for tests. */
  tick(): void {
    const now = this.now();
    if (now - this.expected >= STALL_MIN_MS) this.note(this.expected, now);
    this.expected = now + TICK_MS;
  }

  /** Records [from, to] as a span the loop could not run. */
  note(from: number, to: number): void {
    this.starts[this.next] = from;
    this.ends[this.next] = to;
    this.next = (this.next + 1) % SPANS;
    if (this.count < SPANS) this.count++;
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
    if (pending >= STALL_MIN_MS)
      total += Math.max(0, Math.min(to, this.now()) - Math.max(from, this.expected));
    return total;
  }

  /**
   * The kept spans that end after `from`, oldest first, a stall under way included (read
   * right after a stall, before the tick noted it). Read on demand: nothing per check.
   */
  spansSince(from: number): Array<[number, number]> {
    const spans: Array<[number, number]> = [];
    const oldest = this.count < SPANS ? 0 : this.next;
    for (let k = 0; k < this.count; k++) {
      const i = (oldest + k) % SPANS;
      const end = this.ends[i] as number;
      if (end > from) spans.push([this.starts[i] as number, end]);
    }
    const now = this.now();
    if (now - this.expected >= STALL_MIN_MS && now > from) spans.push([this.expected, now]);
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
