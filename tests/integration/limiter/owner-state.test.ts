import { afterAll, describe, expect, it } from "vitest";
import { evaluate } from "@/lib/check/limiter/evaluate";
import { runScript } from "@/lib/shared/redis/ioredis-scripts";
import { entryOf, limitKey } from "@/lib/check/limiter/keys";
import { dropEntriesScript } from "@/lib/check/limiter/script";
import type { LimitSpec } from "@/lib/check/limiter/types";
import { rule, spec } from "../../unit/limiter/rules";
import { connect, RUN } from "./redis";
import { createVirtualClock } from "./virtual-clock";

// Every counter of one owner lives in one key, as 40-byte records (lua/common.lua): each
// limit still counts on its own, a counter past its time leaves the key at the next write,
// the key lives as long as its longest counter, and a reset removes one counter alone.

const redis = connect();
afterAll(() => redis.quit());

const owned = (tenant: string, id: string, r: LimitSpec["rule"], route?: string): LimitSpec => ({
  ...spec(tenant, id, r, route ? `k.1 ${route}` : "k.1"),
  owner: "k.1",
});

describe("an owner's counters in one key", () => {
  it("count each limit on its own", async () => {
    const tenant = `${RUN}own`;
    const limits = [
      owned(tenant, "rps", rule("fixed_window", 2, 60_000)),
      owned(tenant, "search", rule("gcra", 3, 60_000), "GET /s"),
    ];
    expect(limitKey(limits[0]!)).toBe(limitKey(limits[1]!));
    const left = async (only: LimitSpec[]) =>
      (await evaluate(redis, only, { cost: 1, dryRun: true })).limits.map((l) => l.remaining);
    await evaluate(redis, limits, { cost: 1, dryRun: false });
    await evaluate(redis, [limits[1]!], { cost: 1, dryRun: false });
    // fixed window: 2 - 1 used, dry run of one more; gcra: 3 - 2 used, dry run of one more
    expect(await left(limits)).toEqual([0, 0]);
    const denied = await evaluate(redis, limits, { cost: 2, dryRun: false });
    expect(denied.allowed).toBe(false);
    expect(await left(limits)).toEqual([0, 0]);
    const value = await redis.getBuffer(limitKey(limits[0]!));
    expect(value?.length).toBe(80);
  });

  it("drop a counter past its time at the next write, and live as long as the longest", async () => {
    const tenant = `${RUN}exp`;
    const clock = createVirtualClock(1_800_000_000_000);
    const short = owned(tenant, "short", rule("gcra", 10, 100));
    const long = owned(tenant, "long", rule("fixed_window", 10, 60_000));
    await evaluate(redis, [short, long], { cost: 1, dryRun: false }, { clock });
    expect((await redis.getBuffer(limitKey(long)))?.length).toBe(80);
    clock.advance(1_000);
    await evaluate(redis, [long], { cost: 1, dryRun: false }, { clock });
    expect((await redis.getBuffer(limitKey(long)))?.length).toBe(40);
    const ttl = await redis.pttl(limitKey(long));
    // the window's end (59 s away in virtual time) plus the virtual clock's slack of 1 h
    expect(ttl).toBeGreaterThan(3_600_000 + 58_000);
    expect(ttl).toBeLessThanOrEqual(3_600_000 + 59_000);
  });

  it("lose one counter to a reset, and the key with its last", async () => {
    const tenant = `${RUN}rst`;
    const a = owned(tenant, "a", rule("token_bucket", 5, 60_000));
    const b = owned(tenant, "b", rule("sliding_window", 5, 60_000));
    await evaluate(redis, [a, b], { cost: 2, dryRun: false });
    const key = limitKey(a);
    const drop = (mode: string, ...entries: string[]) =>
      runScript(redis, dropEntriesScript(), [key], [mode, ...entries]);
    expect(await drop("count", entryOf(a), "zzzzzzzz")).toBe(1);
    const ttl = await redis.pttl(key);
    expect(await drop("drop", entryOf(a))).toBe(1);
    expect((await redis.getBuffer(key))?.length).toBe(40);
    expect(Math.abs((await redis.pttl(key)) - ttl)).toBeLessThan(1_000);
    expect((await evaluate(redis, [a, b], { cost: 1, dryRun: true })).limits.map((l) => l.remaining)).toEqual(
      [4, 2],
    );
    expect(await drop("drop", entryOf(b))).toBe(1);
    expect(await redis.exists(key)).toBe(0);
  });
});
