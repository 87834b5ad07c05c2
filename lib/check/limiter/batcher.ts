import "server-only";
import type { Check, LimitSpec } from "@/lib/check/limiter/types";
import {
  buildManyCall,
  prepareCheck,
  singleArgs,
  type PreparedCheck,
} from "@/lib/check/limiter/evaluate-many";
import type { EvaluateOptions } from "@/lib/check/limiter/clock";
import { checkManyScript, checkScript, parseReply } from "@/lib/check/limiter/script";
import type { ScriptClient } from "@/lib/shared/redis/script-client";

// Micro-batching: checks submitted in the same turn of the event loop (the HTTP requests
// one poll phase read, or all checks of one batch request) are grouped by tenant, i.e. by
// hash tag and Cluster slot (on a single Redis, `anyTenant`, all in one group, or a mix of
// tenants would make calls of one or two checks each), and each group goes to Redis as ONE
// call of lua/check-many.lua, which decides them in submission order, each all-or-nothing
// on its own. A lone check takes lua/check.lua as before. Each check gets its own answer; a
// failed call fails all its checks. Callbacks, not promises: this runs once per check on
// the hot path.

/**
 * A check's answer: the script's integers for it start at reply[at] (2 + 6 per limit, see
 * lua/check.lua; readReply() reads them into a CheckDecision), or the failure.
 */
export type Outcome = { ok: true; reply: readonly number[]; at: number } | { ok: false; error: unknown };
export type Settle = (outcome: Outcome) => void;

interface Entry {
  prepared: PreparedCheck;
  settle: Settle;
  /** performance.now() by which it must be answered (Infinity: no deadline) */
  deadline: number;
  done: boolean;
}

/** No Redis connection is ready: the call was not sent. */
export class NoClientError extends Error {
  constructor() {
    super("no Redis connection is ready");
  }
}

/** The check's deadline passed before Redis answered (its call may still complete). */
export class CheckTimeoutError extends Error {
  constructor() {
    super("the limiter call did not answer in time");
  }
}

/** Answers a whole call: its reply (each check's part in order), or null and the error. */
type Answer = (reply: readonly number[] | null, error?: unknown) => void;

const TIMED_OUT: Outcome = { ok: false, error: new CheckTimeoutError() };

export interface BatcherOptions {
  /**
   * most checks in one script call. Small enough that Redis starts on a group while this
   * process still reads the next requests, large enough to share each call's cost
   * (measured: docs/architecture.md).
   */
  maxChecks?: number;
  /** test-only virtual clock (see clock.ts) */
  evaluate?: EvaluateOptions;
  /** one Redis, no Cluster slots: checks of different tenants may share a call */
  anyTenant?: boolean;
}

/** Answers an entry once; a throwing callback must not keep the call's other checks waiting. */
function finish(entry: Entry, outcome: Outcome): void {
  if (entry.done) return;
  entry.done = true;
  try {
    entry.settle(outcome);
  } catch (error) {
    console.error("[sluice] a limiter callback threw:", error);
  }
}

const NO_LIMITS: readonly number[] = [1, 0];

export class CheckBatcher {
  private groups = new Map<string, Entry[]>();
  private scheduled = false;
  private readonly maxChecks: number;

  constructor(
    private readonly pick: () => ScriptClient | null,
    private readonly options: BatcherOptions = {},
  ) {
    this.maxChecks = options.maxChecks ?? 16;
  }

  /** Queues a check; `settle` is called once, never synchronously for a queued check. */
  submit(check: Check, settle: Settle): void {
    if (check.limits.length === 0) {
      settle({ ok: true, reply: NO_LIMITS, at: 0 });
      return;
    }
    let prepared: PreparedCheck;
    try {
      prepared = prepareCheck(check);
    } catch (error) {
      settle({ ok: false, error });
      return;
    }
    this.submitPrepared(prepared, settle);
  }

  /**
   * Queues a check already validated by prepareCheck (its keys and rules may be reused by
   * many checks), with at least one limit. With `timeoutMs`, `settle` gets CheckTimeoutError
   * when Redis has not answered by then; one timer per script call serves all its checks.
   */
  submitPrepared(prepared: PreparedCheck, settle: Settle, timeoutMs?: number): void {
    const tenant = this.options.anyTenant === true ? "" : (prepared.check.limits[0] as LimitSpec).tenantId;
    const deadline = timeoutMs === undefined ? Infinity : performance.now() + timeoutMs;
    let group = this.groups.get(tenant);
    if (!group) this.groups.set(tenant, (group = []));
    group.push({ prepared, settle, deadline, done: false });
    if (group.length >= this.maxChecks) {
      this.groups.delete(tenant);
      this.send(group);
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    const groups = this.groups;
    this.groups = new Map();
    for (const group of groups.values()) this.send(group);
  };

  private send(group: Entry[]): void {
    const timer = this.armDeadline(group);
    /** Answers every check of the call that is not answered yet: its part of the reply, or the error. */
    const answer: Answer = (reply, error) => {
      if (timer) clearTimeout(timer.handle);
      let at = 0;
      for (let i = 0; i < group.length; i++) {
        const entry = group[i] as Entry;
        finish(entry, reply ? { ok: true, reply, at } : { ok: false, error });
        at += 2 + 6 * entry.prepared.keys.length;
      }
    };
    try {
      this.call(group, answer);
    } catch (error) {
      // e.g. a bad virtual clock: nothing was sent
      answer(null, error);
    }
  }

  /** One timer for the call, at its earliest deadline; re-armed for checks that wait longer. */
  private armDeadline(group: Entry[]): { handle: NodeJS.Timeout } | null {
    let earliest = Infinity;
    for (const entry of group) if (entry.deadline < earliest) earliest = entry.deadline;
    if (earliest === Infinity) return null;
    // Timers run before I/O in a turn of the event loop: after a stall (a GC pause, a long
    // turn, the process descheduled) a reply that came in time is still unread when the
    // timer fires. The verdict waits for this turn's I/O (setImmediate runs after it), so a
    // check Redis answered in time is answered, not degraded (seen under the bench's mix).
    const expire = (): void => void setImmediate(decide);
    const decide = (): void => {
      const now = performance.now();
      let next = Infinity;
      for (const entry of group) {
        if (entry.done) continue;
        if (entry.deadline <= now + 0.5) finish(entry, TIMED_OUT);
        else if (entry.deadline < next) next = entry.deadline;
      }
      if (next !== Infinity) timer.handle = setTimeout(expire, next - now);
    };
    const timer = { handle: setTimeout(expire, Math.max(0, earliest - performance.now())) };
    return timer;
  }

  private call(group: Entry[], answer: Answer): void {
    const client = this.pick();
    if (!client) {
      answer(null, new NoClientError());
      return;
    }
    const prepared = group.map((entry) => entry.prepared);
    const done = (error: Error | null, reply?: unknown): void => {
      if (error) {
        answer(null, error);
        return;
      }
      let integers: number[];
      try {
        integers = parseReply(reply);
        let size = 0;
        for (const p of prepared) size += 2 + 6 * p.keys.length;
        if (integers.length !== size) throw new Error(`limiter script: reply of ${integers.length} integers`);
      } catch (failure) {
        answer(null, failure);
        return;
      }
      answer(integers);
    };
    if (prepared.length === 1) {
      const single = prepared[0] as PreparedCheck;
      client.run(checkScript(), single.keys, singleArgs(single, this.options.evaluate), done);
    } else {
      const { keys, args } = buildManyCall(prepared, this.options.evaluate);
      client.run(checkManyScript(), keys, args, done);
    }
  }
}
