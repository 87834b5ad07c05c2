import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CheckBatcher, CheckTimeoutError, type Outcome } from "@/lib/check/limiter/batcher";
import { ioredisScripts, loadScripts } from "@/lib/shared/redis/ioredis-scripts";
import { checkManyScript, checkScript } from "@/lib/check/limiter/script";
import { LeanRedis } from "@/lib/check/limiter/lean-redis/lean-redis";
import type { HotClient } from "@/lib/shared/redis/script-client";
import { prepareCheck } from "@/lib/check/limiter/evaluate-many";
import { readReply } from "@/lib/check/limiter/evaluate";
import { exactnessProblem } from "@/lib/check/limiter/args";
import { ReferenceLimiter } from "@/lib/check/limiter/reference/model";
import type { Check, CheckDecision, LimitSpec } from "@/lib/check/limiter/types";
import { createVirtualClock } from "./virtual-clock";
import { clusterNodes, connect, redisUrl, RUN } from "./redis";
import { fakeRedis } from "./fake-redis";
import { int, pick, prng, randomRule, type Random } from "./random";
import { waitFor } from "@/tests/wait-for";

// The micro-batched path (lib/check/limiter/batcher.ts, lua/check-many.lua) against the reference
// model: random bursts of concurrent checks of several tenants and limit sets, submitted in
// one tick, must get the decisions the model gives when it takes them one by one in
// submission order, and leave the same state (a final dry run of every limit agrees). Through
// both clients of the check path: ioredis (a Cluster) and the lean client (a single Redis),
// and on a single Redis with calls grouped by tenant or shared by both (anyTenant).

const redis = connect();
// Connected and with the scripts loaded before the first check, as the server's connections
// are: this test checks submission order, and a call queued while the (test) client still
// connects, or retried after NOSCRIPT, may be overtaken by a later one (each stays atomic).
const SCRIPTS = [checkScript(), checkManyScript()];
const lean = clusterNodes() ? null : new LeanRedis({ url: redisUrl(), scripts: SCRIPTS });
beforeAll(async () => {
  if (redis.status !== "ready") await once(redis, "ready");
  await loadScripts(redis, SCRIPTS);
  // as before: the tests that need the lean client say so themselves if it never came up
  if (lean) await waitFor(() => lean.ready, "the lean client to be ready", 5_000, 10).catch(() => undefined);
});
afterAll(async () => {
  lean?.disconnect();
  await redis.quit();
});

type Kind = "ioredis" | "lean";
const KINDS: Kind[] = lean ? ["ioredis", "lean"] : ["ioredis"];
const clientOf = (kind: Kind): HotClient => (kind === "lean" ? (lean as LeanRedis) : ioredisScripts(redis));

const SEQUENCES = Number(process.env.LIMITER_SEQUENCES ?? 150) / 3;
const STEPS = 30;

function randomPool(rand: Random, tenant: string): LimitSpec[] {
  return Array.from({ length: int(rand, 1, 5) }, (_, i) => {
    let rule = randomRule(rand);
    while (exactnessProblem(rule)) rule = randomRule(rand);
    return { id: `l${i}`, tenantId: tenant, identity: pick(rand, ["k:1", "t", "s:x"]), rule };
  });
}

/** A non-empty subset of the pool, in pool order (a check's limits). */
function someOf(rand: Random, pool: LimitSpec[]): LimitSpec[] {
  const used = pool.filter(() => rand() < 0.6);
  return used.length > 0 ? used : [pool[0] as LimitSpec];
}

/** The decision of a check from its part of the call's reply. */
function decisionOf(check: Check, outcome: Outcome): CheckDecision | false {
  if (!outcome.ok) return false;
  return readReply(check.limits, outcome.reply.slice(outcome.at, outcome.at + 2 + 6 * check.limits.length));
}

function submitAll(batcher: CheckBatcher, checks: Check[]): Promise<Outcome[]> {
  return Promise.all(
    checks.map((check) => new Promise<Outcome>((resolve) => batcher.submit(check, resolve))),
  );
}

describe.each(KINDS)("micro-batched checks (%s) agree with the reference model taken one by one", (kind) => {
  it(
    `on ${SEQUENCES} random sequences of concurrent bursts (virtual clock)`,
    { timeout: 120_000 },
    async () => {
      const base = Number(process.env.LIMITER_SEED ?? Date.now() % 1_000_000);
      let grouped = 0;
      for (let s = 0; s < SEQUENCES; s++) {
        const seed = base + s;
        const rand = prng(seed);
        const pools = [randomPool(rand, `${RUN}${kind}${seed}a`), randomPool(rand, `${RUN}${kind}${seed}b`)];
        const clock = createVirtualClock(1_790_000_000_000 + int(rand, 0, 1e9));
        const model = new ReferenceLimiter(() => clock.nowMs());
        const batcher = new CheckBatcher(() => clientOf(kind), {
          maxChecks: int(rand, 1, 12),
          evaluate: { clock },
          // on a single Redis, half the sequences put both tenants' checks in shared calls
          anyTenant: clusterNodes() === null && rand() < 0.5,
        });
        const smallest = Math.min(...pools.flat().map((l) => l.rule.windowMs));
        for (let step = 0; step < STEPS; step++) {
          clock.advance(pick(rand, [0, 1, int(rand, 0, smallest), int(rand, 0, 2 * smallest)]));
          const checks: Check[] = Array.from({ length: int(rand, 1, 25) }, () => ({
            limits: someOf(rand, pick(rand, pools)),
            request: { cost: rand() < 0.8 ? 1 : int(rand, 1, 25), dryRun: rand() < 0.1 },
          }));
          const outcomes = await submitAll(batcher, checks);
          if (checks.length > 1) grouped++;
          checks.forEach((check, i) => {
            const outcome = outcomes[i] as Outcome;
            if (!outcome.ok) expect.fail(`seed ${seed} step ${step} check ${i}: ${String(outcome.error)}`);
            const ref: CheckDecision = model.check(check.limits, check.request);
            expect(decisionOf(check, outcome), `seed ${seed} step ${step} check ${i}`).toEqual(ref);
          });
        }
        // same final state: a dry run of every limit alone, batched together
        const finals: Check[] = pools
          .flat()
          .map((spec) => ({ limits: [spec], request: { cost: 1, dryRun: true } }));
        const outcomes = await submitAll(batcher, finals);
        finals.forEach((check, i) => {
          const outcome = outcomes[i] as Outcome;
          expect(decisionOf(check, outcome), `seed ${seed} final ${i}`).toEqual(
            model.check(check.limits, check.request),
          );
        });
      }
      expect(grouped).toBeGreaterThan(SEQUENCES);
    },
  );

  it("a bad check fails alone; the others of its tick are decided", async () => {
    const tenant = `${RUN}bad`;
    const spec: LimitSpec = { id: "a", tenantId: tenant, identity: "t", rule: randomRule(prng(3)) };
    const batcher = new CheckBatcher(() => clientOf(kind));
    const outcomes = await submitAll(batcher, [
      { limits: [spec], request: { cost: 1, dryRun: true } },
      { limits: [spec], request: { cost: 0, dryRun: false } },
      { limits: [spec], request: { cost: 1, dryRun: true } },
    ]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
  });

  it("no connection ready: every check of the tick fails at once", async () => {
    const spec: LimitSpec = { id: "a", tenantId: `${RUN}none`, identity: "t", rule: randomRule(prng(4)) };
    const batcher = new CheckBatcher(() => null);
    const outcomes = await submitAll(batcher, [
      { limits: [spec], request: { cost: 1, dryRun: false } },
      { limits: [spec], request: { cost: 1, dryRun: false } },
    ]);
    expect(outcomes.every((o) => !o.ok)).toBe(true);
  });

  it("a Redis that never answers: each check fails at its own deadline; a throwing callback stops no other", async () => {
    const { client, close } = await fakeRedis(kind);
    try {
      const spec: LimitSpec = { id: "a", tenantId: `${RUN}silent`, identity: "t", rule: randomRule(prng(5)) };
      const prepared = prepareCheck({ limits: [spec], request: { cost: 1, dryRun: false } });
      const batcher = new CheckBatcher(() => client);
      const started = performance.now();
      const timed = (timeoutMs: number) =>
        new Promise<[Outcome, number]>((resolve) =>
          batcher.submitPrepared(
            prepared,
            (outcome) => resolve([outcome, performance.now() - started]),
            timeoutMs,
          ),
        );
      batcher.submitPrepared(
        prepared,
        () => {
          throw new Error("a callback that throws");
        },
        30,
      );
      // Deadlines far apart, so a loaded machine's timer lag cannot blur which fired when.
      const [early, late] = await Promise.all([timed(30), timed(400)]);
      for (const [outcome] of [early, late]) {
        expect(outcome.ok).toBe(false);
        expect(!outcome.ok && outcome.error).toBeInstanceOf(CheckTimeoutError);
      }
      expect(early[1]).toBeGreaterThanOrEqual(29);
      expect(early[1]).toBeLessThan(300);
      expect(late[1]).toBeGreaterThanOrEqual(399);
    } finally {
      close();
    }
  });

  it("a reply that came in time while the event loop stalled past the deadline answers the check", async () => {
    const spec: LimitSpec = { id: "a", tenantId: `${RUN}stall`, identity: "t", rule: randomRule(prng(7)) };
    const prepared = prepareCheck({ limits: [spec], request: { cost: 1, dryRun: true } });
    // ioredis as the check path has it: the call written in its turn (auto-pipelining defers it)
    const direct = kind === "ioredis" ? connect(false) : null;
    if (direct) {
      if (direct.status !== "ready") await once(direct, "ready");
      await loadScripts(direct, SCRIPTS);
    }
    const batcher = new CheckBatcher(() => (direct ? ioredisScripts(direct) : clientOf(kind)));
    const answered = new Promise<Outcome>((resolve) => batcher.submitPrepared(prepared, resolve, 30));
    // queued after the batcher's flush, which sends the call: Redis answers during this stall,
    // and the deadline's timer then fires before the turn that reads the reply
    setImmediate(() => {
      const until = performance.now() + 150;
      while (performance.now() < until);
    });
    const outcome = await answered;
    direct?.disconnect();
    expect(outcome.ok ? "ok" : String(outcome.error)).toBe("ok");
  });

  it("a reply that does not fit its check fails it at once, not at its deadline", async () => {
    // two integers where one limit's check expects eight (read after the call resolved)
    const { client, close } = await fakeRedis(kind, "*2\r\n:1\r\n:2\r\n");
    try {
      const spec: LimitSpec = {
        id: "a",
        tenantId: `${RUN}garbled`,
        identity: "t",
        rule: randomRule(prng(6)),
      };
      const prepared = prepareCheck({ limits: [spec], request: { cost: 1, dryRun: false } });
      const batcher = new CheckBatcher(() => client);
      const started = performance.now();
      const outcome = await new Promise<Outcome>((resolve) =>
        batcher.submitPrepared(prepared, resolve, 5_000),
      );
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(outcome.ok).toBe(false);
      expect(!outcome.ok && String(outcome.error)).toMatch(/reply of 2 integers/);
    } finally {
      close();
    }
  });
});
