import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LimiterStore, type StoreResult } from "@/lib/check/limiter-store";
import { LeanRedis } from "@/lib/check/limiter/lean-redis/lean-redis";
import { prepareCheck } from "@/lib/check/limiter/evaluate-many";
import { checkManyScript, checkScript } from "@/lib/check/limiter/script";
import { rule, spec } from "../../unit/limiter/rules";
import { RUN } from "./redis";
import { freePort, startRedis } from "./throwaway-redis";
import { waitFor } from "@/tests/wait-for";

// The limiter store tells Redis' failures from this process's own stalls: a deadline missed
// because the event loop was busy answers degraded with cause local_overload and leaves the
// circuit breaker closed; a Redis that had its time and did not answer (CLIENT PAUSE) is a
// redis_timeout and opens it; a port with no Redis is connection_lost. On a Redis of the
// test's own, since it is paused.

const SCRIPTS = [checkScript(), checkManyScript()];
const TIMEOUT_MS = 30;
const prepared = prepareCheck({
  limits: [spec(`${RUN}causes`, "rps", rule("gcra", 1_000_000, 1_000))],
  request: { cost: 1, dryRun: true },
});

let port = 0;
let dir = "";
let lean: LeanRedis;
let admin: Redis;

function until(ready: () => boolean, ms = 10_000): Promise<void> {
  return waitFor(ready, "the store's state", ms, 10);
}

function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** Threshold 2 and no probe within the test: the breaker's state is the failures' count. */
function newStore(client: LeanRedis): LimiterStore {
  return new LimiterStore([client], { timeoutMs: TIMEOUT_MS, threshold: 2, cooldownMs: 60_000 });
}

/**
 * One check. `before`: the loop spins before the batcher writes the call (in the check's
 * turn); `after`: it spins once the call is written, so the deadline's timer fires late.
 */
function checkWith(
  store: LimiterStore,
  stall: { before?: number; after?: number } = {},
): Promise<StoreResult> {
  const result = new Promise<StoreResult>((resolve) => store.check(prepared, resolve));
  if (stall.before) spin(stall.before);
  // queued after the batcher's flush (its setImmediate was queued by check())
  if (stall.after) setImmediate(() => spin(stall.after as number));
  return result;
}

const causeOf = (result: StoreResult): string => (result.ok ? "ok" : result.cause);

/** Checks until one answers `cause`, every other answer being local_overload (at most 20). */
async function untilCause(store: LimiterStore, cause: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const seen = causeOf(await checkWith(store));
    if (seen === cause) return;
    expect(seen).toBe("local_overload");
  }
  throw new Error(`20 checks in a row were local_overload, none ${cause}`);
}

beforeAll(async () => {
  port = await freePort();
  dir = mkdtempSync(join(tmpdir(), "sluice-causes-"));
  await startRedis(port, dir, ["--pidfile", join(dir, "redis.pid")]);
  lean = new LeanRedis({ url: `redis://127.0.0.1:${port}`, scripts: SCRIPTS });
  await until(() => lean.ready);
  // Redis listens now; no retries: its SHUTDOWN at the end must settle, not wait for a Redis that is gone
  admin = new Redis({ port, protocol: 2, maxRetriesPerRequest: 0, retryStrategy: () => null });
  admin.on("error", () => undefined);
});

afterAll(async () => {
  lean.disconnect();
  await admin.call("SHUTDOWN", "NOSAVE").catch(() => undefined);
  admin.disconnect();
  rmSync(dir, { recursive: true, force: true });
});

describe("limiter store failure causes", () => {
  it("a loop busier than the timeout while Redis answers fast: Redis' verdicts, the breaker stays closed", async () => {
    const store = newStore(lean);
    for (let i = 0; i < 4; i++) {
      // the call is written 3 timeouts after the check came in: Redis is owed its timeout from then
      expect(causeOf(await checkWith(store, { before: 3 * TIMEOUT_MS }))).toBe("ok");
      // the reply comes in during the stall, before the late timer's verdict
      expect(causeOf(await checkWith(store, { after: 3 * TIMEOUT_MS }))).toBe("ok");
    }
    expect(store.breaker.state).toBe("closed");
  });

  it("Redis paused: a stalled deadline is local_overload and not counted; on-time ones are redis_timeout and open the breaker", async () => {
    const store = newStore(lean);
    expect(causeOf(await checkWith(store))).toBe("ok");
    // WRITE: scripts wait (EVALSHA may write), CLIENT UNPAUSE does not
    await admin.call("CLIENT", "PAUSE", "10000", "WRITE");
    try {
      for (let i = 0; i < 3; i++) {
        expect(causeOf(await checkWith(store, { after: 4 * TIMEOUT_MS }))).toBe("local_overload");
      }
      expect(store.breaker.state).toBe("closed");
      // an on-time deadline is redis_timeout; on a loaded machine this process may itself be
      // held past one now and then (local_overload, rightly, which the breaker must not count)
      await untilCause(store, "redis_timeout");
      expect(store.breaker.state).toBe("closed");
      await untilCause(store, "redis_timeout");
      expect(store.breaker.state).toBe("open");
      expect(causeOf(await checkWith(store))).toBe("breaker_open");
    } finally {
      await admin.call("CLIENT", "UNPAUSE");
    }
    const fresh = newStore(lean);
    // the paused calls' late replies are read and dropped; new checks get Redis' verdicts
    let last: StoreResult = await checkWith(fresh);
    const end = Date.now() + 5_000;
    while (!last.ok && Date.now() < end) last = await checkWith(fresh);
    expect(causeOf(last)).toBe("ok");
  });

  it("no Redis at the address: connection_lost, then breaker_open", async () => {
    const nowhere = new LeanRedis({ url: `redis://127.0.0.1:${await freePort()}`, scripts: SCRIPTS });
    try {
      const store = newStore(nowhere);
      expect(causeOf(await checkWith(store))).toBe("connection_lost");
      expect(causeOf(await checkWith(store))).toBe("connection_lost");
      expect(causeOf(await checkWith(store))).toBe("breaker_open");
    } finally {
      nowhere.disconnect();
    }
  });
});
