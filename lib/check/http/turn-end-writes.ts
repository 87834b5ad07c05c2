// Answers decided from memory (deny cache, unknown keys, suspended tenants...) are written
// together at the end of the event-loop turn that read their requests, instead of one by
// one between the JSON work of the others. Each write to a socket whose reader sleeps makes
// the kernel wake that reader (in a VM, an inter-processor interrupt): written back to back,
// the first write wakes the client and the rest find it awake. Answers that come from Redis already leave in
// one burst per reply and are written at once.

const queued: Array<() => void> = [];

function flush(): void {
  // jobs queued while flushing (none expected) wait for the next turn
  const jobs = queued.splice(0);
  for (const job of jobs) job();
}

/** Runs `job` after every callback of this turn (setImmediate), in the order queued. */
export function atTurnEnd(job: () => void): void {
  if (queued.push(job) === 1) setImmediate(flush);
}

/**
 * Wraps `deliver` for a decision that may come synchronously (from memory) or later (from
 * Redis): the first waits for the end of the turn, the second is delivered at once. Call
 * `settled()` right after the call that may answer synchronously.
 */
export function deliverer<T>(deliver: (value: T) => void): {
  callback: (value: T) => void;
  settled: () => void;
} {
  let synchronous = true;
  return {
    callback: (value: T) => {
      if (synchronous) atTurnEnd(() => deliver(value));
      else deliver(value);
    },
    settled: () => {
      synchronous = false;
    },
  };
}
