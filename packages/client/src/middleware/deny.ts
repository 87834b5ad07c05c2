import type { CheckResult } from "../types";

// How a request over its limit is answered (the `onDenied` option): 429 (the default),
// 503, dropped without an answer, or queued: held (a timer, never a busy wait) for the
// decision's retryAfterMs and checked again, at most `queue.maxWaitMs` in all and at most
// `queue.maxSize` requests held at once per middleware, then 429 if still denied.
// Waits and Retry-After are spread by +/- `jitter` (default 10%) so that callers denied
// together do not all come back in the same instant.

export type DenyAnswer = 429 | 503 | "drop" | "queue";

export interface QueueOptions {
  /** longest a request is held in all before it is answered 429 (default: maxWaitMs, 10,000) */
  maxWaitMs?: number;
  /** requests held at once by this middleware; more are answered 429 at once (default 1,000) */
  maxSize?: number;
}

export interface DenyOptions {
  /** how a request over its limit is answered (default 429) */
  onDenied?: DenyAnswer;
  queue?: QueueOptions;
  /** +/- fraction spread over waits and Retry-After, 0..1 (default 0.1; 0 turns it off) */
  jitter?: number;
  /** longest wait honoured for delay limits; a longer waitMs is answered 429 (default 10,000) */
  maxWaitMs?: number;
}

const ANSWERS: readonly unknown[] = [429, 503, "drop", "queue"];

/** Throws a clear error naming the field of a bad option (called once per middleware). */
export function checkDenyOptions(options: DenyOptions): void {
  if (options.onDenied !== undefined && !ANSWERS.includes(options.onDenied))
    throw new Error(`onDenied: must be 429, 503, "drop" or "queue", got ${String(options.onDenied)}`);
  const jitter = options.jitter;
  if (jitter !== undefined && !(jitter >= 0 && jitter <= 1))
    throw new Error(`jitter: must be a fraction from 0 to 1, got ${String(jitter)}`);
  for (const [field, value] of [
    ["maxWaitMs", options.maxWaitMs],
    ["queue.maxWaitMs", options.queue?.maxWaitMs],
    ["queue.maxSize", options.queue?.maxSize],
  ] as const) {
    if (value !== undefined && !(Number.isFinite(value) && value >= 0))
      throw new Error(`${field}: must be a number >= 0, got ${String(value)}`);
  }
}

/** `ms` spread uniformly over +/- jitter (never below 0). */
export function jittered(ms: number, jitter: number | undefined): number {
  const spread = jitter ?? 0.1;
  if (spread === 0 || ms <= 0) return ms;
  return Math.max(0, Math.round(ms * (1 + spread * (2 * Math.random() - 1))));
}

/** Over a rate limit (worth retrying later), as opposed to refused for who the caller is. */
export function overLimit(result: CheckResult, maxWaitMs: number): boolean {
  if (result.allowed) return result.waitMs > maxWaitMs;
  return (
    result.reason === "rate_limited" ||
    result.reason === "cost_exceeds_capacity" ||
    result.reason === "penalty"
  );
}

// Requests each middleware holds now; keyed by its options object, so two middlewares
// have two queues and a forgotten middleware leaves nothing behind.
const held = new WeakMap<object, { size: number }>();

/**
 * Holds a denied request and checks again until admitted, out of queue time, or not worth
 * waiting for (a retry later than what is left); the last decision is returned.
 */
export async function queued(
  options: DenyOptions,
  first: CheckResult,
  again: () => Promise<CheckResult>,
): Promise<CheckResult> {
  const maxWait = options.queue?.maxWaitMs ?? options.maxWaitMs ?? 10_000;
  const state = held.get(options) ?? { size: 0 };
  held.set(options, state);
  if (state.size >= (options.queue?.maxSize ?? 1_000)) return first;
  state.size++;
  try {
    let result = first;
    const deadline = performance.now() + maxWait;
    while (!result.allowed && result.reason === "rate_limited") {
      const wait = jittered(Math.max(result.retryAfterMs ?? 0, 1), options.jitter);
      if (performance.now() + wait > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, wait));
      result = await again();
    }
    return result;
  } finally {
    state.size--;
  }
}
