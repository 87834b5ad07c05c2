import { describe, expect, it } from "vitest";
import { atTurnEnd, deliverer } from "@/lib/check/http/turn-end-writes";

describe("answers written at the end of the turn", () => {
  it("delays answers given synchronously to the end of the turn, in order; later ones go at once", async () => {
    const seen: string[] = [];
    const first = deliverer((value: string) => seen.push(value));
    first.callback("from memory 1");
    first.settled();
    const second = deliverer((value: string) => seen.push(value));
    second.callback("from memory 2");
    second.settled();
    const third = deliverer((value: string) => seen.push(value));
    third.settled();
    seen.push("rest of the turn");
    expect(seen).toEqual(["rest of the turn"]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(["rest of the turn", "from memory 1", "from memory 2"]);
    third.callback("from redis");
    expect(seen.at(-1)).toBe("from redis");
  });

  it("runs jobs queued while flushing on the next turn", async () => {
    const seen: number[] = [];
    atTurnEnd(() => {
      seen.push(1);
      atTurnEnd(() => seen.push(3));
    });
    atTurnEnd(() => seen.push(2));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([1, 2]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([1, 2, 3]);
  });
});
