import { afterAll, describe, expect, it } from "vitest";
import { evaluate } from "@/lib/check/limiter/evaluate";
import { releaseLease } from "@/lib/check/limiter/release";
import { limitKey } from "@/lib/check/limiter/keys";
import { newLeaseId } from "@/lib/check/limiter/lease-id";
import { ReferenceLimiter } from "@/lib/check/limiter/reference/model";
import type { CheckDecision, LimitSpec } from "@/lib/check/limiter/types";
import { rule, spec } from "../../unit/limiter/rules";
import { createVirtualClock } from "./virtual-clock";
import { connect, RUN } from "./redis";
import { int, pick, prng, randomRule } from "./random";

// Concurrency limits (lua/algorithms/concurrency.lua): the script against the reference
// model on random sequences of checks and releases, and the lease life cycle: release is
// idempotent, an unreleased lease expires, a check another limit denies takes no slot. On
// the cluster suite this file runs against Redis Cluster too.

const redis = connect();
afterAll(() => redis.quit());

const SEQUENCES = Number(process.env.LIMITER_SEQUENCES ?? 60);
const STEPS = 60;

function randomLimits(rand: () => number, tenant: string): LimitSpec[] {
  const limits: LimitSpec[] = [];
  const leases = int(rand, 1, 2);
  for (let i = 0; i < leases; i++) {
    const r = rule("concurrency", int(rand, 1, 6), pick(rand, [5, 50, 1_000, 60_000]), {
      mode: rand() < 0.2 ? "shadow" : "enforce",
    });
    limits.push(spec(tenant, `c${i}`, r, pick(rand, ["k:1", "t", "s:203.0.113.9"])));
  }
  // often beside a rate limit, which may deny the check while a slot is free
  if (rand() < 0.6) limits.push(spec(tenant, "r", { ...randomRule(rand), mode: "enforce" }, "k:1"));
  return limits;
}

const explain = (seed: number, step: number, lua: unknown, ref: unknown): string =>
  `seed ${seed} step ${step}\nlua ${JSON.stringify(lua)}\nref ${JSON.stringify(ref)}`;

describe("concurrency limits", () => {
  it(
    `agree with the reference model on ${SEQUENCES} random sequences of checks and releases`,
    { timeout: 120_000 },
    async () => {
      const base = Number(process.env.LIMITER_SEED ?? Date.now() % 1_000_000);
      const seen = new Map<string, number>();
      const tally = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);
      for (let s = 0; s < SEQUENCES; s++) {
        const seed = base + s;
        const rand = prng(seed);
        const limits = randomLimits(rand, `${RUN}cd${seed}`);
        const clock = createVirtualClock(1_790_000_000_000 + int(rand, 0, 1e9));
        const model = new ReferenceLimiter(() => clock.nowMs());
        const taken: number[] = [];
        for (let step = 0; step < STEPS; step++) {
          clock.advance(pick(rand, [0, 0, 1, int(rand, 0, 20), int(rand, 0, 2_000)]));
          if (taken.length > 0 && rand() < 0.35) {
            // a release: often the newest lease, sometimes one released already
            const lease = pick(rand, taken);
            const lua = await releaseLease(redis, limits, lease, { clock });
            const ref = model.release(limits, lease);
            if (lua !== ref) expect.fail(explain(seed, step, lua, ref));
            tally(lua > 0 ? "released" : "released nothing");
            continue;
          }
          const request = {
            cost: rand() < 0.8 ? 1 : int(rand, 1, 5),
            dryRun: rand() < 0.1,
            lease: newLeaseId(),
          };
          const lua: CheckDecision = await evaluate(redis, limits, request, { clock });
          const ref = model.check(limits, request);
          if (JSON.stringify(lua) !== JSON.stringify(ref)) expect.fail(explain(seed, step, lua, ref));
          if (lua.allowed && !request.dryRun) taken.push(request.lease);
          for (const d of lua.limits) if (d.algorithm === "concurrency") tally(`${d.mode} ${d.reason}`);
        }
      }
      for (const what of ["enforce ok", "enforce rate_limited", "released", "released nothing"])
        expect(seen.get(what) ?? 0, what).toBeGreaterThan(5);
      console.info("concurrency outcomes", Object.fromEntries([...seen].sort()));
    },
  );

  it("release is idempotent: a second release frees nothing and the slot is counted once", async () => {
    const limits = [spec(`${RUN}ci`, "in-flight", rule("concurrency", 2, 60_000))];
    const a = newLeaseId();
    const b = newLeaseId();
    expect((await evaluate(redis, limits, { cost: 1, dryRun: false, lease: a })).remaining).toBe(1);
    expect((await evaluate(redis, limits, { cost: 1, dryRun: false, lease: b })).remaining).toBe(0);
    expect((await evaluate(redis, limits, { cost: 1, dryRun: false, lease: newLeaseId() })).allowed).toBe(
      false,
    );
    expect(await releaseLease(redis, limits, a)).toBe(1);
    expect(await releaseLease(redis, limits, a)).toBe(0);
    // one slot free, not two
    const probe = await evaluate(redis, limits, { cost: 1, dryRun: true });
    expect(probe).toMatchObject({ allowed: true, remaining: 0 });
    expect(await redis.zcard(limitKey(limits[0] as LimitSpec))).toBe(1);
  });

  it("an unreleased lease expires after the lease timeout; the denial's retry names that time", async () => {
    const clock = createVirtualClock(1_790_000_000_000);
    const limits = [spec(`${RUN}ce`, "in-flight", rule("concurrency", 1, 30_000))];
    expect((await evaluate(redis, limits, { cost: 1, dryRun: false, lease: 7 }, { clock })).allowed).toBe(
      true,
    );
    clock.advance(10_000);
    const denied = await evaluate(redis, limits, { cost: 1, dryRun: false, lease: 8 }, { clock });
    expect(denied).toMatchObject({ allowed: false, reason: "rate_limited", retryAfterMs: 20_000 });
    clock.advance(19_999);
    expect((await evaluate(redis, limits, { cost: 1, dryRun: false, lease: 9 }, { clock })).allowed).toBe(
      false,
    );
    clock.advance(1);
    const after = await evaluate(redis, limits, { cost: 1, dryRun: false, lease: 10 }, { clock });
    expect(after).toMatchObject({ allowed: true, remaining: 0 });
    // the expired lease was dropped by that write: the set holds the new lease only
    expect(await redis.zrange(limitKey(limits[0] as LimitSpec), "0", "-1")).toEqual(["10"]);
    // releasing the expired lease later frees nothing
    expect(await releaseLease(redis, limits, 7, { clock })).toBe(0);
  });

  it("a check another limit denies takes no slot", async () => {
    const tenant = `${RUN}cx`;
    const limits = [
      spec(tenant, "in-flight", rule("concurrency", 5, 60_000)),
      spec(tenant, "per-minute", rule("fixed_window", 1, 31_536_000_000)),
    ];
    expect((await evaluate(redis, limits, { cost: 1, dryRun: false, lease: newLeaseId() })).allowed).toBe(
      true,
    );
    const denied = await evaluate(redis, limits, { cost: 1, dryRun: false, lease: newLeaseId() });
    expect(denied).toMatchObject({ allowed: false, deciding: 1 });
    expect(denied.limits[0]).toMatchObject({ allowed: true, consumed: false, remaining: 4 });
    expect(await redis.zcard(limitKey(limits[0] as LimitSpec))).toBe(1);
  });
});
