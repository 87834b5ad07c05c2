import { describe, expect, it } from "vitest";
import { lateCause, LoopStalls, type StallWatchOptions } from "@/lib/check/loop-stalls";

// A late answer is "starved" when the event loop's stalls in its lifetime cover the excess
// over the bound, else "waited" (a wait on the check path). The clock is the test's.

// the mechanism, at a 10 ms tick (the front's is 2 ms, tested below)
const TEN: StallWatchOptions = { tickMs: 10, minLateMs: 2, spans: 1_024 };

function clocked(): { stalls: LoopStalls; at: (ms: number) => void } {
  let now = 0;
  const stalls = new LoopStalls(() => now, TEN);
  return { stalls, at: (ms) => (now = ms) };
}

describe("the event loop's stall timeline", () => {
  it("notes a tick that fired late as a stall from when it was due", () => {
    const { stalls, at } = clocked();
    at(0);
    stalls.tick(); // due at 10 from here
    at(10);
    stalls.tick(); // on time
    at(320);
    stalls.tick(); // due at 20: stalled 20..320
    expect(stalls.stalledWithin(0, 400)).toBe(300);
    expect(stalls.stalledWithin(100, 200)).toBe(100);
    expect(stalls.stalledWithin(320, 400)).toBe(0);
  });

  it("ignores a timer's ordinary jitter", () => {
    const { stalls, at } = clocked();
    at(0);
    stalls.tick();
    at(11);
    stalls.tick();
    expect(stalls.stalledWithin(0, 20)).toBe(0);
  });

  it("counts a stall still under way (no tick since)", () => {
    const { stalls, at } = clocked();
    at(0);
    stalls.tick(); // due at 10
    at(210);
    expect(stalls.stalledWithin(0, 210)).toBe(200);
  });

  it("calls an answer starved when stalls explain its lateness, waited when they do not", () => {
    const { stalls, at } = clocked();
    at(0);
    stalls.tick();
    at(400);
    stalls.tick(); // stalled 10..400
    // 450 ms answer, 390 ms of it stalled: 60 ms of its own, within a 100 ms bound
    expect(lateCause(stalls, 0, 450, 100)).toBe("starved");
    // an answer that started after the stall and took 300 ms waited on something
    at(700);
    stalls.tick(); // due at 410: stalled 410..700 as well
    expect(lateCause(stalls, 400, 300, 100)).toBe("starved");
    at(710);
    stalls.tick();
    at(1_020);
    stalls.tick(); // on time every 10 ms from here
    for (let t = 1_030; t <= 1_400; t += 10) {
      at(t);
      stalls.tick();
    }
    expect(lateCause(stalls, 1_020, 300, 100)).toBe("waited");
  });

  it("keeps a bounded number of spans, the oldest dropped", () => {
    const { stalls } = clocked();
    for (let i = 0; i < 2_000; i++) stalls.note(i * 100, i * 100 + 50);
    expect(stalls.stalledWithin(0, 1_000)).toBe(0);
    expect(stalls.stalledWithin(199_000, 200_000)).toBe(500);
  });
});

describe("the stall spans read back (GET /api/metrics/stalls)", () => {
  it("lists the kept spans ending after a moment, oldest first, with a stall under way", () => {
    const { stalls, at } = clocked();
    for (let i = 0; i < 1_030; i++) stalls.note(i * 100, i * 100 + 50); // the ring wrapped
    for (let t = 0; t <= 103_000; t += 10) {
      at(t);
      stalls.tick(); // on time: no span of its own; the last one due at 103_010
    }
    // a span ending exactly at the moment is left out
    expect(stalls.spansSince(102_850)).toEqual([[102_900, 102_950]]);
    at(103_200); // stalled since 103_010, no tick yet
    expect(stalls.spansSince(102_850)).toEqual([
      [102_900, 102_950],
      [103_010, 103_200],
    ]);
    const all = stalls.spansSince(-Infinity);
    expect(all).toHaveLength(1_025);
    expect(all[0]).toEqual([600, 650]);
  });
});

describe("a finer watch (the failover tests' client)", () => {
  it("sees a wakeup's wait a 10 ms watch misses", () => {
    let now = 0;
    const coarse = new LoopStalls(() => now, TEN);
    const fine = new LoopStalls(() => now, { tickMs: 1, minLateMs: 2, spans: 64 });
    coarse.tick(); // due at 10
    fine.tick(); // due at 1
    // the loop runs on time to 3, then waits 7 ms for a core and runs on
    for (now = 1; now <= 3; now++) fine.tick();
    now = 10;
    fine.tick(); // due at 4: stalled 4..10
    coarse.tick(); // on time
    expect(coarse.stalledWithin(0, 10)).toBe(0);
    expect(fine.stalledWithin(0, 10)).toBe(6);
  });
});

describe("the front's watch", () => {
  it("ticks every 2 ms: a 5 ms wait between two 10 ms ticks is seen", () => {
    let now = 0;
    const front = new LoopStalls(() => now);
    const coarse = new LoopStalls(() => now, TEN);
    front.tick(); // due at 2
    coarse.tick(); // due at 10
    for (now = 2; now <= 4; now += 2) front.tick();
    now = 11; // due at 6: stalled 6..11
    front.tick();
    coarse.tick(); // 1 ms late: a timer's jitter
    expect(front.stalledWithin(0, 11)).toBe(5);
    expect(coarse.stalledWithin(0, 11)).toBe(0);
  });
});
