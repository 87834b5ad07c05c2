import { describe, expect, it } from "vitest";
import { moveState, readsNoMore, type ConnectionState } from "@/lib/check/http/front/connection-state";

// A front connection's states: open, then a last request, closing or a hand-off to
// node:http; closing and handing off are final (a client ending during a hand-off does not
// undo it).

const STATES: ConnectionState[] = ["open", "lastRequest", "closing", "handingOff"];

describe("a front connection's state", () => {
  it("moves from open to any other, and from a last request to closing or a hand-off", () => {
    expect(STATES.map((to) => moveState("open", to))).toEqual(STATES);
    expect(STATES.map((to) => moveState("lastRequest", to))).toEqual([
      "lastRequest",
      "lastRequest",
      "closing",
      "handingOff",
    ]);
  });

  it("stays closing or handing off, which read no more requests", () => {
    for (const to of STATES) {
      expect(moveState("closing", to)).toBe("closing");
      expect(moveState("handingOff", to)).toBe("handingOff");
    }
    expect(STATES.filter(readsNoMore)).toEqual(["closing", "handingOff"]);
  });
});
