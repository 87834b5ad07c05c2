import "server-only";
import type { RedisClient } from "@/lib/redis";
import type { Check, CheckDecision } from "@/lib/limiter/types";
import { summarize } from "@/lib/limiter/decide";
import { readReply } from "@/lib/limiter/evaluate";
import { evaluateGroup, prepareCheck, singleArgs, type PreparedCheck } from "@/lib/limiter/evaluate-many";
import type { EvaluateOptions } from "@/lib/limiter/clock";
import { runCheckScript } from "@/lib/limiter/script";

// Micro-batching: checks submitted in the same turn of the event loop (the HTTP requests one
// poll phase read, or all checks of one batch request) are grouped by tenant, i.e. by hash
// tag and Cluster slot, and each group goes to Redis as ONE call of lua/check-many.lua, which
// decides them in submission order, each all-or-nothing on its own. A lone check takes
// lua/check.lua as before. Each check gets its own answer; a failed call fails all its
// checks. Callbacks, not promises: this runs once per check on the hot path.

export type Outcome = { ok: true; decision: CheckDecision } | { ok: false; error: unknown };
export type Settle = (outcome: Outcome) => void;

interface Entry {
  prepared: PreparedCheck;
  settle: Settle;
}

/** No Redis connection is ready: the call was not sent. */
export class NoClientError extends Error {
  constructor() {
    super("no Redis connection is ready");
  }
}

export interface BatcherOptions {
  /** most checks in one script call: bounds how long one call holds Redis */
  maxChecks?: number;
  /** test-only virtual clock (see clock.ts) */
  evaluate?: EvaluateOptions;
}

const NO_LIMITS: CheckDecision = summarize([]);

export class CheckBatcher {
  private groups = new Map<string, Entry[]>();
  private scheduled = false;
  private readonly maxChecks: number;

  constructor(
    private readonly pick: () => RedisClient | null,
    private readonly options: BatcherOptions = {},
  ) {
    this.maxChecks = options.maxChecks ?? 64;
  }

  /** Queues a check; `settle` is called once, never synchronously for a queued check. */
  submit(check: Check, settle: Settle): void {
    const first = check.limits[0];
    if (!first) {
      settle({ ok: true, decision: NO_LIMITS });
      return;
    }
    let prepared: PreparedCheck;
    try {
      prepared = prepareCheck(check);
    } catch (error) {
      settle({ ok: false, error });
      return;
    }
    const tenant = first.tenantId;
    let group = this.groups.get(tenant);
    if (!group) this.groups.set(tenant, (group = []));
    group.push({ prepared, settle });
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
    try {
      this.call(group);
    } catch (error) {
      // e.g. a bad virtual clock: nothing was sent
      const failed: Outcome = { ok: false, error };
      for (const entry of group) entry.settle(failed);
    }
  }

  private call(group: Entry[]): void {
    const client = this.pick();
    if (!client) {
      const failed: Outcome = { ok: false, error: new NoClientError() };
      for (const entry of group) entry.settle(failed);
      return;
    }
    const fail = (error: unknown): void => {
      const failed: Outcome = { ok: false, error };
      for (const entry of group) entry.settle(failed);
    };
    if (group.length === 1) {
      const entry = group[0] as Entry;
      const { check, keys } = entry.prepared;
      runCheckScript(client, keys, singleArgs(entry.prepared, this.options.evaluate)).then(
        (reply) => entry.settle({ ok: true, decision: readReply(check.limits, reply) }),
        fail,
      );
      return;
    }
    evaluateGroup(client, group.map((entry) => entry.prepared), this.options.evaluate).then(
      (decisions) => {
        for (let i = 0; i < group.length; i++) {
          (group[i] as Entry).settle({ ok: true, decision: decisions[i] as CheckDecision });
        }
      },
      fail,
    );
  }
}
