import "server-only";
import type { PreparedCheck } from "@/lib/check/limiter/evaluate-many";

// The deadline of one limiter call (batcher.ts): a timeout must mean that Redis was late,
// never that this process was. Redis is owed each check's timeout from the call's write,
// a reply read in the turn the timer fires wins, and a timer that fired late because the
// event loop was stalled is told apart (LocalStallError) so the breaker does not count it.

/**
 * A check's answer: the script's integers for it start at reply[at] (2 + 6 per limit, see
 * lua/check.lua; readReply() reads them into a CheckDecision), or the failure.
 */
export type Outcome = { ok: true; reply: readonly number[]; at: number } | { ok: false; error: unknown };
export type Settle = (outcome: Outcome) => void;

export interface Entry {
  prepared: PreparedCheck;
  settle: Settle;
  /** performance.now() by which it must be answered (Infinity: no deadline) */
  deadline: number;
  /** its timeout (Infinity: none): Redis is owed this long from the call's write */
  wait: number;
  done: boolean;
}

/** Answers an entry once; a throwing callback must not keep the call's other checks waiting. */
export function finish(entry: Entry, outcome: Outcome): void {
  if (entry.done) return;
  entry.done = true;
  try {
    entry.settle(outcome);
  } catch (error) {
    console.error("[sluice] a limiter callback threw:", error);
  }
}

/** The check's deadline passed before Redis answered (its call may still complete). */
export class CheckTimeoutError extends Error {
  constructor() {
    super("the limiter call did not answer in time");
  }
}

/**
 * The deadline's timer fired more than lateBound() late and no reply had been read: this
 * process's event loop was stalled (its own CPU, a GC pause, the machine's scheduler), so
 * the wait says nothing about Redis. Still a timeout to the caller (answered degraded).
 */
export class LocalStallError extends CheckTimeoutError {
  constructor() {
    super();
    this.message = "this process stalled past the limiter call's deadline";
  }
}

/**
 * How late a deadline's timer may fire before the wait is the process's fault, not Redis':
 * a fifth of the timeout, at least 5 ms (timers fire a few ms late on a busy machine).
 */
export function lateBound(waitMs: number): number {
  return Math.max(5, waitMs / 5);
}

const TIMED_OUT: Outcome = { ok: false, error: new CheckTimeoutError() };
const STALLED: Outcome = { ok: false, error: new LocalStallError() };

/**
 * One timer for the call, at its earliest deadline; re-armed for checks that wait longer.
 * Redis is owed each check's timeout from the moment the call is written (now): a check
 * whose call this process wrote late (its loop busy since the check came in) waits until
 * then, so a late write is never Redis' timeout (docs/api.md, Degraded answers).
 */
export function armDeadline(group: Entry[]): { handle: NodeJS.Timeout } | null {
  const sentAt = performance.now();
  let earliest = Infinity;
  for (const entry of group) {
    if (entry.deadline - entry.wait + lateBound(entry.wait) < sentAt) entry.deadline = sentAt + entry.wait;
    if (entry.deadline < earliest) earliest = entry.deadline;
  }
  if (earliest === Infinity) return null;
  const timer = { handle: undefined as unknown as NodeJS.Timeout, due: earliest, late: 0 };
  // Timers run before I/O in a turn of the event loop: after a stall (a GC pause, a long
  // turn, the process descheduled) a reply that came in time is still unread when the
  // timer fires. The verdict waits for this turn's I/O (setImmediate runs after it), so a
  // check Redis answered in time is answered, not degraded (seen under the bench's mix).
  const expire = (): void => {
    timer.late = performance.now() - timer.due;
    setImmediate(decide);
  };
  const decide = (): void => {
    const now = performance.now();
    let next = Infinity;
    for (const entry of group) {
      if (entry.done) continue;
      if (entry.deadline <= now + 0.5)
        finish(entry, timer.late > lateBound(entry.wait) ? STALLED : TIMED_OUT);
      else if (entry.deadline < next) next = entry.deadline;
    }
    if (next === Infinity) return;
    timer.due = next;
    timer.handle = setTimeout(expire, next - now);
  };
  timer.handle = setTimeout(expire, Math.max(0, earliest - sentAt));
  return timer;
}
