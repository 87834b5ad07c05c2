import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildShape } from "@/lib/check/check-shapes";
import { checkParts } from "@/lib/check/check-parts";
import { CheckBatcher, type Outcome } from "@/lib/check/limiter/batcher";
import type { PreparedCheck } from "@/lib/check/limiter/evaluate-many";
import { ioredisScripts, loadScripts } from "@/lib/shared/redis/ioredis-scripts";
import { checkManyScript, checkScript } from "@/lib/check/limiter/script";
import { keyRecord, shapeSnapshot, shapeTarget } from "../../unit/enforce/shape-fixture";
import { connect, RUN } from "./redis";

// Checks that differ only in their subject share one cached shape (keys of the
// tenant's and key's counters, rules, answer text), yet against real Redis each subject
// still has a counter of its own where a limit counts per subject, and shares the others.

const redis = connect();
beforeAll(async () => {
  if (redis.status !== "ready") await once(redis, "ready");
  await loadScripts(redis, [checkScript(), checkManyScript()]);
});
afterAll(async () => {
  await redis.quit();
});

const tenantId = `${RUN}-shapes`;
// the subject limit admits 10 an hour, its log 100 a minute; the tenant's and key's 1,000 an hour
const snapshot = shapeSnapshot(tenantId);
const shape = buildShape(shapeTarget(snapshot), snapshot, true, 1);
const batcher = new CheckBatcher(() => ioredisScripts(redis));

function check(subject: string): Promise<{ allowed: boolean; remaining: number[] }> {
  const { keys, specs } = checkParts(shape, keyRecord("backend", "K1"), subject);
  const prepared: PreparedCheck = {
    check: { limits: specs, request: { cost: 1, dryRun: false } },
    keys,
    rules: shape.rules,
  };
  return new Promise((resolve, reject) => {
    batcher.submitPrepared(prepared, (outcome: Outcome) => {
      if (!outcome.ok) return reject(outcome.error as Error);
      const { reply, at } = outcome;
      const remaining = shape.specs.map((_, i) => reply[at + 2 + 6 * i + 2] as number);
      resolve({ allowed: reply[at] === 1, remaining });
    });
  });
}

describe("one shape for every subject", () => {
  it("counts the subject's limits per subject and the others once for all", async () => {
    const a1 = await check("alice");
    const b1 = await check("bob");
    // per-subject (10 an hour) and the subject's log start afresh for bob; tenant and key go on
    expect(a1.remaining).toEqual([999, 999, 9, 99]);
    expect(b1.remaining).toEqual([998, 998, 9, 99]);
    for (let i = 0; i < 9; i++) expect((await check("alice")).allowed).toBe(true);
    expect((await check("alice")).allowed).toBe(false);
    const b2 = await check("bob");
    expect(b2.allowed).toBe(true);
    expect(b2.remaining[2]).toBe(8);
  });
});
