import "server-only";
import type { Check, LimitSpec } from "@/lib/check/limiter/types";
import {
  buildManyCall,
  prepareCheck,
  singleArgs,
  type PreparedCheck,
} from "@/lib/check/limiter/evaluate-many";
import { nowOverride, type EvaluateOptions } from "@/lib/check/limiter/clock";
import { checkManyScript, checkScript, parseReply } from "@/lib/check/limiter/script";
import type { ScriptClient } from "@/lib/shared/redis/script-client";
import { armDeadline, finish, type Entry, type Settle } from "@/lib/check/limiter/call-deadline";

export {
  CheckTimeoutError,
  LocalStallError,
  type Outcome,
  type Settle,
} from "@/lib/check/limiter/call-deadline";

// Micro-batching: checks submitted in the same turn of the event loop (the HTTP requests
// one poll phase read, or all checks of one batch request) are grouped by tenant, i.e. by
// hash tag and Cluster slot (on a single Redis, `anyTenant`, all in one group, or a mix of
// tenants would make calls of one or two checks each), and each group goes to Redis as ONE
// call of lua/check-many.lua, which decides them in submission order, each all-or-nothing
// on its own. A lone check takes lua/check.lua as before. Each check gets its own answer; a
// failed call fails all its checks. Callbacks, not promises: this runs once per check on
// the hot path.

/** No Redis connection is ready: the call was not sent. */
export class NoClientError extends Error {
  constructor() {
    super("no Redis connection is ready");
  }
}

/** Answers a whole call: its reply (each check's part in order), or null and the error. */
type Answer = (reply: readonly number[] | null, error?: unknown) => void;

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
      const override = nowOverride(this.options.evaluate);
      prepared = prepareCheck(check, override < 0 ? undefined : override);
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
    const wait = timeoutMs ?? Infinity;
    const deadline = timeoutMs === undefined ? Infinity : performance.now() + timeoutMs;
    let group = this.groups.get(tenant);
    if (!group) this.groups.set(tenant, (group = []));
    group.push({ prepared, settle, deadline, wait, done: false });
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
    const timer = armDeadline(group);
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
