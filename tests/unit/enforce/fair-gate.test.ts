import { describe, expect, it } from "vitest";
import { FairGate, type FairWork } from "@/lib/check/fair/fair-gate";

// The fair gate on its own: which work starts when, in what order, and what is refused.
// Work here answers only when the test says so (`finish`), as Redis would later.

interface Probe {
  started: string[];
  open: Map<string, () => void>;
}

function probe(): Probe {
  return { started: [], open: new Map() };
}

/** A unit of `cost` checks named `name`: recorded when started, answered by finish(name). */
function work(p: Probe, name: string, cost = 1): FairWork {
  return {
    cost,
    run(done) {
      p.started.push(name);
      p.open.set(name, done);
    },
  };
}

function finish(p: Probe, name: string): void {
  const done = p.open.get(name);
  if (!done) throw new Error(`${name} is not running`);
  p.open.delete(name);
  done();
}

// alone, an owner may hold window - reserve = 4 in flight; `shared` (4 here) only bites in its own test
const small = { window: 8, reserve: 4, quantum: 2, maxQueued: 10, shared: 4, sharedMs: 1_000 };

describe("fair gate", () => {
  it("starts work at once while the window has room", () => {
    const p = probe();
    const gate = new FairGate(small);
    expect(gate.submit("a", [work(p, "a1"), work(p, "a2")])).toBe(true);
    expect(p.started).toEqual(["a1", "a2"]);
    expect(gate.active).toBe(2);
  });

  it("keeps the reserve free of the busiest owner, so a newcomer starts at once", () => {
    const p = probe();
    const gate = new FairGate(small);
    const batch = Array.from({ length: 5 }, (_, i) => work(p, `a${i}`, 2)); // 10 checks
    expect(gate.submit("a", batch)).toBe(true);
    // a takes at most window - reserve = 4 checks in flight: two chunks of 2
    expect(p.started).toEqual(["a0", "a1"]);
    expect(gate.queuedTotal).toBe(6);
    expect(gate.submit("b", [work(p, "b0")])).toBe(true);
    expect(p.started).toEqual(["a0", "a1", "b0"]);
  });

  it("serves waiting owners in turns by cost, not in arrival order", () => {
    const p = probe();
    const gate = new FairGate({
      window: 4,
      reserve: 2,
      quantum: 2,
      maxQueued: 20,
      shared: 2,
      sharedMs: 1_000,
    });
    // fill the window with two owners' work, then queue a big batch of a, then b's singles
    gate.submit("x", [work(p, "x0", 2)]);
    gate.submit("y", [work(p, "y0", 2)]);
    gate.submit(
      "a",
      Array.from({ length: 4 }, (_, i) => work(p, `a${i}`, 2)),
    );
    gate.submit("b", [work(p, "b0"), work(p, "b1"), work(p, "b2")]);
    expect(p.started).toEqual(["x0", "y0"]);
    finish(p, "x0"); // 2 slots: a's turn (one chunk of 2)
    expect(p.started.slice(2)).toEqual(["a0"]);
    finish(p, "y0"); // 2 slots: b's turn (two singles, its quantum)
    expect(p.started.slice(3)).toEqual(["b0", "b1"]);
    finish(p, "a0"); // a again, not b2: b has had its turn
    expect(p.started.slice(5)).toEqual(["a1"]);
    finish(p, "b0");
    expect(p.started.slice(6)).toEqual(["b2"]);
  });

  it("refuses work that does not fit in its owner's queue, whole, and others still start", () => {
    const p = probe();
    const gate = new FairGate(small);
    expect(
      gate.submit(
        "a",
        Array.from({ length: 6 }, (_, i) => work(p, `a${i}`, 2)),
      ),
    ).toBe(true);
    expect(gate.queuedTotal).toBe(8);
    // 8 waiting + 4 more > 10: refused whole, nothing of it queued
    expect(gate.submit("a", [work(p, "late0", 2), work(p, "late1", 2)])).toBe(false);
    expect(gate.queuedTotal).toBe(8);
    expect(gate.submit("b", [work(p, "b0")])).toBe(true);
    expect(p.started).toContain("b0");
    expect(p.started).not.toContain("late0");
  });

  it("accepts a batch larger than the queue when the owner has nothing waiting", () => {
    const p = probe();
    const gate = new FairGate(small);
    const batch = Array.from({ length: 8 }, (_, i) => work(p, `a${i}`, 2)); // 16 checks > maxQueued
    expect(gate.submit("a", batch)).toBe(true);
    for (let i = 0; i < 8; i++) finish(p, `a${i}`);
    expect(p.started).toHaveLength(8);
    expect(gate.active).toBe(0);
  });

  it("answers given synchronously drain the queues without recursion and forget idle owners", () => {
    const gate = new FairGate(small);
    let ran = 0;
    const instant: FairWork = {
      cost: 1,
      run(done) {
        ran++;
        done();
      },
    };
    const blocker = probe();
    gate.submit("a", [work(blocker, "a0", 2), work(blocker, "a1", 2)]);
    gate.submit(
      "b",
      Array.from({ length: 10 }, () => instant),
    );
    expect(ran).toBe(10);
    finish(blocker, "a0");
    finish(blocker, "a1");
    expect(gate.active).toBe(0);
    expect(gate.queuedTotal).toBe(0);
  });

  it("a unit larger than an owner's share starts alone rather than never", () => {
    const p = probe();
    const gate = new FairGate(small);
    expect(gate.submit("a", [work(p, "big", 6)])).toBe(true);
    expect(p.started).toEqual(["big"]);
  });

  it("holds the busiest owner to its shared share while another owner is active, and for a while after", () => {
    const p = probe();
    let clock = 0;
    const gate = new FairGate({
      window: 16,
      reserve: 4,
      quantum: 2,
      maxQueued: 40,
      shared: 4,
      sharedMs: 100,
      now: () => clock,
    });
    const batch = (from: number, n: number): FairWork[] =>
      Array.from({ length: n }, (_, i) => work(p, `a${from + i}`, 2));
    gate.submit("a", batch(0, 14)); // alone: 12 checks in flight (window - reserve)
    expect(p.started).toHaveLength(6);
    gate.submit("b", [work(p, "b0")]); // another owner: the front is shared now
    expect(p.started).toContain("b0");
    for (let i = 0; i < 6; i++) finish(p, `a${i}`);
    // shared: a restarts only up to 4 in flight (two chunks), though the window has room
    expect(p.started.filter((name) => name.startsWith("a"))).toHaveLength(8);
    finish(p, "b0");
    clock = 50; // b is gone but was active 50 ms ago: still shared
    finish(p, "a6");
    expect(p.started.filter((name) => name.startsWith("a"))).toHaveLength(9);
    clock = 200; // quiet for longer than sharedMs: a has window - reserve again
    finish(p, "a7");
    expect(p.started.filter((name) => name.startsWith("a"))).toHaveLength(14);
    expect(gate.active).toBe(12);
  });
});
