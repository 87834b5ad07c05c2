import { describe, expect, it } from "vitest";
import { ownRedisAndApp } from "./own-stores";
import { unique } from "./setup";
import { check, serverLatency, sleep } from "./http";
import { LoopStalls } from "@/lib/check/loop-stalls";
import { StallRecord } from "../../reliability/stall-record";
import { boundFigures, excuseOf, stallsOf } from "../../reliability/stall-excuse";

// Redis stalled (SIGSTOP) and then killed under steady traffic, on a throwaway Redis with
// its own app process: every answer within 100 ms, a 200, degraded, open or closed per
// limit, and back to normal by itself once Redis returns.

const open = unique("out-open");
const closed = unique("out-closed");

const big = { algorithm: "token_bucket" as const, limit: 1_000_000, window: "1s", by: "tenant" as const };

const own = ownRedisAndApp([
  { slug: open, plan: "free", limits: [{ name: "lenient", ...big, onStoreFailure: "open" }] },
  {
    slug: closed,
    plan: "free",
    limits: [
      { name: "lenient", ...big, onStoreFailure: "open" },
      { name: "strict", ...big, onStoreFailure: "closed" },
    ],
  },
]);

interface Sample {
  phase: string;
  /** when sent, epoch ms */
  sent: number;
  sinceMs: number;
  ms: number;
  status: number;
  tenant: string;
  allowed: boolean;
  reason: string;
  degraded: boolean;
  cause: string | undefined;
}

describe("Redis outage", () => {
  it("answers degraded within 100 ms while Redis is stalled or down, and recovers", async () => {
    const samples: Sample[] = [];
    let phase = "normal";
    let phaseStart = performance.now();
    let running = true;
    const worker = async (tenant: string) => {
      while (running) {
        const sent = performance.timeOrigin + performance.now();
        const answer = await check({ tenant, route: "GET /x" }, { url: own.app.url });
        samples.push({
          phase,
          sent,
          sinceMs: performance.now() - phaseStart - answer.ms,
          ms: answer.ms,
          status: answer.status,
          tenant,
          allowed: answer.body.allowed,
          reason: answer.body.reason,
          degraded: answer.body.degraded,
          cause: answer.body.cause,
        });
        await sleep(5);
      }
    };
    const enter = (name: string) => {
      phase = name;
      phaseStart = performance.now();
    };
    const recovered = async (name: string, timeoutMs: number) => {
      const deadline = performance.now() + timeoutMs;
      while (performance.now() < deadline) {
        const recent = samples.filter((s) => s.phase === name).slice(-4);
        if (recent.length === 4 && recent.every((s) => !s.degraded)) return true;
        await sleep(50);
      }
      return false;
    };
    // Warm up first (JIT, the script's first EVAL, the connections): not part of the test.
    for (let i = 0; i < 20; i++) await check({ tenant: open, route: "GET /x" }, { url: own.app.url });
    const before = await serverLatency(own.app.url);
    // both ends' stall spans (a 1 ms watch here, the front's own), for the client-side bound
    const watch = new LoopStalls(undefined, { tickMs: 1, minLateMs: 2, spans: 16_384 });
    watch.start();
    const record = new StallRecord(own.app.url, watch);
    record.start();
    const workers = [worker(open), worker(closed)];
    await sleep(600);
    enter("stalled");
    own.redis.signal("SIGSTOP");
    await sleep(1_500);
    enter("resumed");
    own.redis.signal("SIGCONT");
    expect(await recovered("resumed", 5_000)).toBe(true);
    enter("down");
    await own.redis.kill();
    await sleep(1_500);
    enter("restarted");
    await own.redis.start();
    expect(await recovered("restarted", 8_000)).toBe(true);
    running = false;
    await Promise.all(workers);
    await record.stop();
    watch.stop();

    expect(samples.length).toBeGreaterThan(50);
    expect(samples.filter((s) => s.status !== 200)).toEqual([]);
    // Every answer within 100 ms as the server timed it (request in to answer out)...
    const after = await serverLatency(own.app.url);
    expect(after.count - before.count).toBeGreaterThanOrEqual(samples.length);
    // ...except answers its own stalled event loop made late (the server tells them apart,
    // lib/check/loop-stalls.ts): a loaded machine made 2 of 205 so once; none waited on Redis
    expect(after.lateWaited - before.lateWaited).toBe(0);
    expect(
      after.within100ms - before.within100ms + (after.lateStarved - before.lateStarved),
    ).toBeGreaterThanOrEqual(after.count - before.count);
    // ...and as this client saw it: over 100 ms only where a process on the way could not
    // run meanwhile (stall-excuse.ts; a wait on the stalled or dead Redis, with both loops
    // running, is never excused), in at most 5% of answers. At a load of 15-20 up to 8% were
    // over 100 ms, nearly all within such stalls.
    const stalls = stallsOf(record.client, record.server);
    const figures = boundFigures(samples, stalls, 100);
    const unexplained = samples
      .filter((s) => excuseOf(s, stalls, 100) === "unexplained")
      .map((s) => `${s.phase} +${s.sinceMs.toFixed(0)}: ${s.ms.toFixed(0)} ms`);
    console.log(`  client-side: ${JSON.stringify(figures)} of ${samples.length} answers`);
    expect(record.truncated).toBe(0);
    expect(unexplained.length, unexplained.join(", ")).toBeLessThanOrEqual(Math.floor(samples.length * 0.05));
    expect(samples.filter((s) => s.ms >= 1_000)).toEqual([]);
    expect(samples.filter((s) => s.phase === "normal" && s.degraded)).toEqual([]);
    expect(samples.filter((s) => s.degraded !== (s.cause !== undefined))).toEqual([]);
    for (const name of ["stalled", "down"]) {
      // answers to checks sent after the change settled (the first in-flight ones may have won)
      const during = samples.filter((s) => s.phase === name && s.sinceMs > 100);
      expect(during.length).toBeGreaterThan(5);
      // stalled: Redis had its time, then the breaker skips it (local_overload: this busy
      // machine stalled the app past a deadline); down: the connection is gone
      const causes =
        name === "stalled"
          ? ["redis_timeout", "breaker_open", "local_overload"]
          : ["connection_lost", "breaker_open"];
      for (const s of during) {
        expect(s.degraded).toBe(true);
        expect(causes).toContain(s.cause);
        if (s.tenant === open) expect([s.allowed, s.reason]).toEqual([true, "ok"]);
        else expect([s.allowed, s.reason]).toEqual([false, "store_unavailable"]);
      }
    }
    const last = samples.filter((s) => s.phase === "restarted").slice(-2);
    for (const s of last) expect([s.allowed, s.degraded]).toEqual([true, false]);
  }, 60_000);
});
