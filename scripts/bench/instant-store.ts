// The check pipeline in process, without Redis: a store that answers every check at once
// (every limit allowing, or every limit denying) and a config holder fixed on one index.
// check-path.ts times the pipeline with them; realistic-calls.ts keeps what the pipeline
// would have sent (`seen`).
import type { ConfigHolder } from "@/lib/check/config-holder";
import type { ConfigIndex } from "@/lib/check/config-index";
import type { LimiterStore, StoreResult } from "@/lib/check/limiter-store";
import type { PreparedCheck } from "@/lib/check/limiter/evaluate-many";

/** status 3: every limit a penalty's block of a minute (docs/algorithms.md, Penalties). */
export function instantStore(status: 0 | 1 | 3, seen?: (prepared: PreparedCheck) => void): LimiterStore {
  const retry = status === 3 ? 60_000 : 1_000;
  const check = (prepared: PreparedCheck, done: (result: StoreResult) => void): void => {
    seen?.(prepared);
    const reply = [status === 1 ? 1 : 0, 0];
    for (let i = 0; i < prepared.keys.length; i++) reply.push(status, 10, 5, 60_000, retry, 0);
    done({ ok: true, reply, at: 0 });
  };
  return { check, onReconnect: () => undefined } as unknown as LimiterStore;
}

/** A holder of one config version: no new versions, no counter resets. */
export function fixedHolder(current: ConfigIndex): ConfigHolder {
  return { current, onVersion: () => undefined, onCountersReset: () => undefined } as unknown as ConfigHolder;
}
