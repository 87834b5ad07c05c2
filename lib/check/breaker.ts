// Circuit breaker for the limiter's Redis. Closed: calls go to Redis. After `threshold`
// failures in a row (errors or timeouts) it opens: calls are answered degraded at once
// instead of each waiting out the check timeout on a dead or stalled Redis. While open, a
// probe (a PING, sent by the owner) runs every `cooldownMs`; its success closes the circuit.
// Time is injected so the unit tests can walk through the states.

export type BreakerState = "closed" | "open";

export interface BreakerOptions {
  threshold: number;
  cooldownMs: number;
  now?: () => number;
  onChange?: (state: BreakerState) => void;
}

export class CircuitBreaker {
  private failures = 0;
  private openedAt = 0;
  private probing = false;
  private current: BreakerState = "closed";
  private readonly now: () => number;

  constructor(private readonly options: BreakerOptions) {
    this.now = options.now ?? performance.now.bind(performance);
  }

  get state(): BreakerState {
    return this.current;
  }

  /** Whether a call may go to Redis now. */
  allows(): boolean {
    return this.current === "closed";
  }

  /** When open and no probe is running: true once per cooldown, the caller then probes. */
  shouldProbe(): boolean {
    if (this.current !== "open" || this.probing) return false;
    if (this.now() - this.openedAt < this.options.cooldownMs) return false;
    this.probing = true;
    return true;
  }

  success(): void {
    this.failures = 0;
    if (this.current !== "closed") this.set("closed");
  }

  failure(): void {
    this.failures += 1;
    if (this.current === "closed" && this.failures >= this.options.threshold) {
      this.openedAt = this.now();
      this.set("open");
    }
  }

  /** The outcome of a probe that shouldProbe() allowed. */
  probeResult(ok: boolean): void {
    this.probing = false;
    if (ok) this.success();
    else this.openedAt = this.now();
  }

  private set(state: BreakerState): void {
    this.current = state;
    this.options.onChange?.(state);
  }
}
