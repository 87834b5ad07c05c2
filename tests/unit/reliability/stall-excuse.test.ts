import { describe, expect, it } from "vitest";
import { boundFigures, coveredMs, excuseOf, stallsOf, union } from "../../reliability/stall-excuse";

// The failover tests' client-side bound (timeout 50 ms + 50 ms): an answer over it is
// excused only by stall time inside its own [sent, received] span, the client's and the
// server's joined, each instant once.

const BOUND = 100;

describe("stall spans joined", () => {
  it("merges overlapping and touching spans, in order, and drops empty ones", () => {
    expect(
      union([
        [50, 60],
        [0, 10],
        [5, 20],
        [20, 30],
        [40, 40],
      ]),
    ).toEqual([
      [0, 30],
      [50, 60],
    ]);
  });

  it("counts only the part of a span inside the answer's time", () => {
    const joined = union([
      [0, 100],
      [150, 170],
      [300, 400],
    ]);
    expect(coveredMs(joined, 50, 350)).toBe(50 + 20 + 50);
    expect(coveredMs(joined, 100, 150)).toBe(0);
    expect(coveredMs(joined, 500, 600)).toBe(0);
  });
});

describe("what excuses an answer over the bound", () => {
  it("lets an answer within the bound be", () => {
    expect(excuseOf({ sent: 0, ms: 100 }, stallsOf([], []), BOUND)).toBe("within");
  });

  it("takes the client's own stalls first, then the server's", () => {
    const client: [number, number][] = [[1_000, 1_080]];
    const server: [number, number][] = [[1_100, 1_200]];
    const stalls = stallsOf(client, server);
    expect(excuseOf({ sent: 1_000, ms: 170 }, stalls, BOUND)).toBe("client");
    expect(excuseOf({ sent: 1_000, ms: 250 }, stalls, BOUND)).toBe("server");
  });

  it("does not count an instant twice when both processes stalled at once", () => {
    // the client stalled 1_000..1_100, the server 1_000..1_150: 150 ms of cover, not 250
    const stalls = stallsOf([[1_000, 1_100]], [[1_000, 1_150]]);
    expect(excuseOf({ sent: 1_000, ms: 250 }, stalls, BOUND)).toBe("server");
    expect(excuseOf({ sent: 1_000, ms: 251 }, stalls, BOUND)).toBe("unexplained");
  });

  it("does not lend a stall outside the answer's own time", () => {
    // a long stall just before it was sent and one just after it arrived
    const stalls = stallsOf([[0, 999]], [[1_400, 3_000]]);
    expect(excuseOf({ sent: 1_000, ms: 400 }, stalls, BOUND)).toBe("unexplained");
  });

  it("never excuses a real failover wait: 400 ms with both loops running is unexplained", () => {
    // a queue behind the dead node: both processes ran (their ticks on time) the whole
    // while, so the stall watches noted only short, scattered spans around it
    const stalls = stallsOf(
      [
        [900, 905],
        [1_250, 1_254],
      ],
      [[1_100, 1_103]],
    );
    expect(excuseOf({ sent: 1_000, ms: 400 }, stalls, BOUND)).toBe("unexplained");
    expect(
      boundFigures(
        [
          { sent: 0, ms: 20 },
          { sent: 1_000, ms: 400 },
          { sent: 2_000, ms: 90 },
        ],
        stalls,
        BOUND,
      ),
    ).toEqual({ overBound: 1, excusedByClient: 0, excusedByServer: 0, unexplained: 1 });
  });
});
