import { afterAll, describe, expect, it } from "vitest";
import { evaluate } from "@/lib/check/limiter/evaluate";
import { releaseLease } from "@/lib/check/limiter/release";
import { limitKey } from "@/lib/check/limiter/keys";
import { newLeaseId } from "@/lib/check/limiter/lease-id";
import type { LimitSpec } from "@/lib/check/limiter/types";
import { rule, spec } from "../../unit/limiter/rules";
import { connect, RUN } from "./redis";

// Two clients (as two servers would) take and release leases of one concurrency limit as
// fast as they can: the holders counted here, who hold from their admission until just
// before their release is sent, never exceed the limit, and every slot comes back.

const N = 5;
const WORKERS = 40; // per client
const ROUNDS = 15;
const clients = [connect(false), connect(false)];
afterAll(() => Promise.all(clients.map((c) => c.quit())));

const pause = (turns: number): Promise<void> =>
  new Promise((resolve) => {
    const next = (left: number) => (left === 0 ? resolve() : setImmediate(() => next(left - 1)));
    next(turns);
  });

describe("concurrency limit under two clients", () => {
  it(`never more than ${N} leases held by ${2 * WORKERS} workers`, { timeout: 120_000 }, async () => {
    const tenant = `${RUN}ch`;
    const limits: LimitSpec[] = [
      spec(tenant, "in-flight", rule("concurrency", N, 60_000)),
      // a rate limit beside it that never denies: the slot is taken in the same call
      spec(tenant, "rate", rule("token_bucket", 1_000_000, 1_000), "t"),
    ];
    let held = 0;
    let most = 0;
    let admitted = 0;
    let denied = 0;
    const worker = async (client: (typeof clients)[number], w: number): Promise<void> => {
      for (let round = 0; round < ROUNDS; round++) {
        const lease = newLeaseId();
        const decision = await evaluate(client, limits, { cost: 1, dryRun: false, lease });
        if (!decision.allowed) {
          denied++;
          await pause(1 + (w % 3));
          continue;
        }
        admitted++;
        held++;
        most = Math.max(most, held);
        expect(held).toBeLessThanOrEqual(N);
        await pause(1 + ((w + round) % 5));
        held--;
        expect(await releaseLease(client, limits, lease)).toBe(1);
      }
    };
    await Promise.all(
      clients.flatMap((client, c) =>
        Array.from({ length: WORKERS }, (_, w) => worker(client, c * WORKERS + w)),
      ),
    );
    console.info(`leases: ${admitted} admitted, ${denied} denied, at most ${most} held at once`);
    expect(most).toBeLessThanOrEqual(N);
    expect(most).toBeGreaterThanOrEqual(2);
    expect(admitted).toBeGreaterThan(N);
    expect(denied).toBeGreaterThan(0);
    // every lease was released: all slots free again
    expect(await clients[0]?.zcard(limitKey(limits[0] as LimitSpec))).toBe(0);
  });
});
