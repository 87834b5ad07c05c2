import type { CheckRequest, CheckResult } from "./types";

// Optional micro-batching: checks asked in the same event-loop turn leave together as one
// POST /api/check/batch (a lone check still goes as a plain /api/check). Sluice decides
// each check of a batch on its own, in order, so nothing about a decision changes; only
// round trips are saved when a process asks many checks at once.

export interface MicroBatchOptions {
  /** most checks per batch; more wait for the next one (default 100; Sluice takes 1,000) */
  maxSize?: number;
}

type Send = {
  one: (check: CheckRequest) => Promise<CheckResult>;
  many: (checks: readonly CheckRequest[]) => Promise<CheckResult[]>;
};

interface Waiting {
  check: CheckRequest;
  resolve: (result: CheckResult) => void;
}

export function microBatcher(
  send: Send,
  options: MicroBatchOptions = {},
): (check: CheckRequest) => Promise<CheckResult> {
  const maxSize = Math.max(1, Math.min(1_000, options.maxSize ?? 100));
  let queue: Waiting[] = [];
  let scheduled = false;

  function flush(): void {
    scheduled = false;
    const taken = queue;
    queue = [];
    for (let at = 0; at < taken.length; at += maxSize) {
      const group = taken.slice(at, at + maxSize);
      if (group.length === 1) {
        const only = group[0] as Waiting;
        void send.one(only.check).then(only.resolve);
        continue;
      }
      // both never reject: a failed call is a fallback decision per check
      void send.many(group.map((w) => w.check)).then((results) => {
        group.forEach((w, i) => w.resolve(results[i] as CheckResult));
      });
    }
  }

  return (check) =>
    new Promise<CheckResult>((resolve) => {
      queue.push({ check, resolve });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}
