import "server-only";
import {
  CheckBatcher,
  CheckTimeoutError,
  LocalStallError,
  NoClientError,
  type Outcome,
} from "@/lib/check/limiter/batcher";
import type { PreparedCheck } from "@/lib/check/limiter/evaluate-many";
import type { HotClient, ReplyCallback, Script } from "@/lib/shared/redis/script-client";
import { CircuitBreaker } from "@/lib/check/breaker";
import { checkMetrics } from "@/lib/check/check-metrics";
import type { DegradedCause, StoreFailure } from "@/lib/check/types";

export type { StoreFailure };

// The limiter behind a deadline and a circuit breaker: every call settles within its
// timeout, either with Redis' verdict or with a failure the caller turns into a degraded
// decision. A Redis error or a timeout is never read as "over the limit". The breaker counts
// Redis' failures only: a deadline missed because this process stalled (LocalStallError) is
// answered degraded with its own cause and leaves the breaker as it was.

/** A failure's kind (the metrics' label) and the cause its degraded answer names. */
type Failed = { ok: false; failure: StoreFailure; cause: DegradedCause };
/** Redis' verdict: the script's integers for the check start at reply[at] (lua/check.lua). */
export type StoreResult = { ok: true; reply: readonly number[]; at: number } | Failed;

const OPEN: Failed = { ok: false, failure: "circuit_open", cause: "breaker_open" };
const TIMEOUT: Failed = { ok: false, failure: "timeout", cause: "redis_timeout" };
const STALLED: Failed = { ok: false, failure: "local_overload", cause: "local_overload" };
const ERROR: Failed = { ok: false, failure: "error", cause: "connection_lost" };

export interface StoreOptions {
  timeoutMs: number;
  /** failures in a row that open the circuit */
  threshold?: number;
  /** time between probes while open */
  cooldownMs?: number;
  /** a single Redis (no Cluster): concurrent checks of any tenants share a script call */
  anyTenant?: boolean;
}

export class LimiterStore {
  readonly breaker: CircuitBreaker;
  private lastError = 0;
  private readonly reconnectListeners: Array<() => void> = [];

  private next = 0;
  /** concurrent checks (of one tenant on a Cluster) go to Redis as one script call (lib/limiter/batcher.ts) */
  private readonly batcher: CheckBatcher;

  /**
   * Several connections, used in turn, so one call's reply is read while Redis runs the
   * next call, sent on another connection, and a large reply delays no other call.
   */
  constructor(
    private readonly clients: readonly HotClient[],
    private readonly options: StoreOptions,
  ) {
    if (clients.length === 0) throw new RangeError("LimiterStore needs at least one Redis client");
    this.batcher = new CheckBatcher(() => this.pick(), { anyTenant: options.anyTenant === true });
    this.breaker = new CircuitBreaker({
      threshold: options.threshold ?? 5,
      cooldownMs: options.cooldownMs ?? 250,
      onChange: (state) => {
        checkMetrics.breakerOpen(state === "open");
        console.warn(
          `[sluice] limiter store circuit ${state === "open" ? "opened: answering degraded" : "closed"}`,
        );
      },
    });
    // A reconnect (Redis restarted) closes the circuit without waiting for the next probe;
    // the Redis behind it may have lost its counters, which listeners must know.
    for (const client of clients) {
      let connectedBefore = false;
      client.onReady(() => {
        this.breaker.success();
        if (connectedBefore) for (const listener of this.reconnectListeners) listener();
        connectedBefore = true;
      });
    }
  }

  onReconnect(listener: () => void): void {
    this.reconnectListeners.push(listener);
  }

  /**
   * One check, answered through `done` within timeoutMs (default: the check timeout), or at
   * once while the circuit is open. Callbacks, not promises: this runs once per check.
   */
  check(
    prepared: PreparedCheck,
    done: (result: StoreResult) => void,
    timeoutMs = this.options.timeoutMs,
  ): void {
    if (!this.breaker.allows()) {
      this.maybeProbe();
      checkMetrics.storeFailure("circuit_open");
      done(OPEN);
      return;
    }
    this.batcher.submitPrepared(
      prepared,
      (outcome: Outcome) => {
        if (outcome.ok) {
          this.breaker.success();
          done(outcome);
        } else if (outcome.error instanceof LocalStallError) {
          // not Redis' failure: neither counted by the breaker nor logged as one
          checkMetrics.storeFailure(STALLED.failure);
          done(STALLED);
        } else if (outcome.error instanceof CheckTimeoutError) {
          done(this.fail(TIMEOUT, null));
        } else {
          done(this.fail(ERROR, outcome.error instanceof NoClientError ? null : outcome.error));
        }
      },
      timeoutMs,
    );
  }

  /**
   * One script call outside the micro-batches (check adjustments: lib/check/adjust), on the
   * next connected client; no deadline or breaker here, the caller sets its own.
   */
  run(
    script: Script,
    keys: readonly string[],
    args: readonly (string | number)[],
    done: ReplyCallback,
  ): void {
    const client = this.pick();
    if (client === null) done(new NoClientError());
    else client.run(script, keys, args, done);
  }

  /** The next connected client in turn, or null when none is (a call would fail at once). */
  private pick(): HotClient | null {
    for (let tries = 0; tries < this.clients.length; tries++) {
      this.next = (this.next + 1) % this.clients.length;
      const client = this.clients[this.next] as HotClient;
      if (client.ready) return client;
    }
    return null;
  }

  private fail(result: Failed, error: unknown): StoreResult {
    this.breaker.failure();
    checkMetrics.storeFailure(result.failure);
    const now = Date.now();
    if (error !== null && now - this.lastError > 5_000) {
      this.lastError = now;
      console.warn(`[sluice] limiter call failed (answering degraded): ${(error as Error).message}`);
    }
    return result;
  }

  /** While open: one PING per cooldown; its answer (in time) closes the circuit. */
  private maybeProbe(): void {
    if (!this.breaker.shouldProbe()) return;
    let done = false;
    const finish = (ok: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      this.breaker.probeResult(ok);
    };
    // decided after the turn's I/O, like a check's deadline (batcher.ts): a stall is not Redis's
    const timer = setTimeout(() => setImmediate(() => finish(false)), this.options.timeoutMs);
    (this.clients[0] as HotClient).ping((error) => finish(error === null));
  }
}
