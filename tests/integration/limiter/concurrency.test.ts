import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { ALGORITHMS } from "@/lib/shared/limit-types";
import { evaluate } from "@/lib/check/limiter/evaluate";
import type { LimitSpec } from "@/lib/check/limiter/types";
import { rule } from "../../unit/limiter/rules";
import { connect, RUN } from "./redis";

// Many processes, hundreds of checks in flight each, on one counter: the script's atomicity
// must admit exactly the limit, and a denied check of several limits must consume nothing.

const run = promisify(execFile);
const PROCESSES = 4;
const YEAR = 31_536_000_000; // a long window: no window edge (or refill) during the test
const redis = connect();
afterAll(() => redis.quit());

async function hammer(sets: LimitSpec[][], count: number): Promise<number[][]> {
  const startAt = Date.now() + 4_000;
  const outputs = await Promise.all(
    Array.from({ length: PROCESSES }, () =>
      run(
        process.execPath,
        [
          "--import",
          "tsx",
          "--import",
          "./scripts/server-only-hook.mjs",
          "tests/integration/limiter/hammer.ts",
          JSON.stringify({ startAt, sets, count }),
        ],
        { env: process.env },
      ),
    ),
  );
  return outputs.map(({ stdout }) => {
    const result = JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as {
      admitted: number[];
      errors: number;
    };
    expect(result.errors).toBe(0);
    return result.admitted;
  });
}

describe("concurrent checks from several processes", () => {
  it(`admit exactly the limit (100 of ${PROCESSES} x 300) for every algorithm`, async () => {
    const tenant = `${RUN}c`;
    const sets = ALGORITHMS.map((algorithm) => [
      { id: algorithm, tenantId: tenant, identity: "k:hot", rule: rule(algorithm, 100, YEAR) },
    ]);
    // each process sends 300 checks per algorithm, all in flight together
    const perProcess = await hammer(sets, 300 * sets.length);
    ALGORITHMS.forEach((algorithm, i) => {
      const total = perProcess.reduce((sum, admitted) => sum + (admitted[i] ?? 0), 0);
      if (algorithm === "sliding_window") expect(total, algorithm).toBeLessThanOrEqual(100);
      else expect(total, algorithm).toBe(100);
    });
  }, 120_000);

  it("key and tenant limits interlock: no unit consumed by a denied check", async () => {
    const tenant = `${RUN}h`;
    const tenantLimit = {
      id: "tenant-rpm",
      tenantId: tenant,
      identity: "t",
      rule: rule("sliding_log", 100, YEAR),
    };
    const keyRule = (i: number) => rule(i % 2 ? "gcra" : "fixed_window", 30, YEAR);
    // 4 keys of 30 each want 120 units of the tenant's 100
    const sets = [0, 1, 2, 3].map((i) => [
      { id: "key-rps", tenantId: tenant, identity: `k:${i}`, rule: keyRule(i) },
      tenantLimit,
    ]);
    const perProcess = await hammer(sets, 200);
    const perKey = [0, 1, 2, 3].map((i) => perProcess.reduce((sum, a) => sum + (a[i] ?? 0), 0));
    expect(perKey.reduce((a, b) => a + b, 0)).toBe(100);
    for (const admitted of perKey) expect(admitted).toBeLessThanOrEqual(30);
    // the counters hold exactly what was admitted: a check the tenant denied took no key unit
    for (const [i, set] of sets.entries()) {
      const state = await evaluate(redis, set, { cost: 1, dryRun: true });
      expect(state.limits[0]?.remaining, `key ${i}`).toBe(30 - (perKey[i] ?? 0));
      expect(state.limits[1]?.remaining).toBe(0);
    }
  }, 120_000);
});
