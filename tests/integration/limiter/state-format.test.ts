import { afterAll, describe, expect, it } from "vitest";
import { evaluate } from "@/lib/limiter/evaluate";
import { limitKey } from "@/lib/limiter/keys";
import { rule, spec } from "../../unit/limiter/rules";
import { connect, RUN } from "./redis";
import { createVirtualClock } from "./virtual-clock";

// String states are binary (a count byte, then little-endian doubles). States written as
// text by earlier versions ("x t W", "index count", "index curr prev") are still read, and
// the next write stores them in the binary form.

const redis = connect();
afterAll(() => redis.quit());

const NOW = 1_800_000_000_000;
const clock = createVirtualClock(NOW);
const tenant = `${RUN}fmt`;

describe("string states", () => {
  it.each([
    // token bucket L=10/s: level 3 units (x = 3 * W) at now leaves 7
    ["token_bucket", rule("token_bucket", 10, 1_000), `${3 * 1_000} ${NOW} 1000`, 7],
    // fixed window L=10 per 60 s: 4 counted in the current window leaves 6
    ["fixed_window", rule("fixed_window", 10, 60_000), `${Math.floor(NOW / 60_000)} 4`, 6],
    // sliding window L=10 per 60 s, at the window's start: prev 5 weighs fully, curr 2: 3 left
    ["sliding_window", rule("sliding_window", 10, 60_000), `${Math.floor(NOW / 60_000)} 2 5`, 3],
  ])("%s reads a text state of an earlier version, then writes it binary", async (name, r, text, left) => {
    const limits = [spec(tenant, name, r, "k:1")];
    const key = limitKey(limits[0]!);
    await redis.set(key, text, "PX", 60_000);
    const read = await evaluate(redis, limits, { cost: 1, dryRun: true }, { clock });
    expect(read.limits[0]).toMatchObject({ allowed: true, remaining: left - 1 });
    const consumed = await evaluate(redis, limits, { cost: 1, dryRun: false }, { clock });
    expect(consumed.limits[0]?.remaining).toBe(left - 1);
    const stored = await redis.getBuffer(key);
    expect(stored?.[0]).toBe(name === "fixed_window" ? 2 : 3);
    const again = await evaluate(redis, limits, { cost: 1, dryRun: true }, { clock });
    expect(again.limits[0]?.remaining).toBe(left - 2);
  });
});
