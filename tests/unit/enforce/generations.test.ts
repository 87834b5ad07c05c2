import { describe, expect, it } from "vitest";
import { Generations } from "@/lib/check/generations";

// The two-generation map of the check path's memos: bounded, and what is read survives.

describe("Generations", () => {
  it("holds at most two generations and drops the older one whole", () => {
    const map = new Generations<number>(3);
    for (let i = 0; i < 7; i++) map.set(`k${i}`, i);
    // young k6; old k3..k5; k0..k2 dropped with their generation
    expect(map.size).toBe(4);
    expect(map.get("k0")).toBeUndefined();
    expect(map.get("k3")).toBe(3);
  });

  it("moves an entry read from the old generation back to the young one", () => {
    const map = new Generations<number>(2);
    map.set("a", 1);
    map.set("b", 2);
    map.set("c", 3); // a, b old
    expect(map.get("a")).toBe(1); // a young again, beside c
    map.set("d", 4); // young full (c, a): it becomes old, b goes
    expect(map.get("b")).toBeUndefined();
    expect(map.get("a")).toBe(1);
    expect(map.get("c")).toBe(3);
  });

  it("deletes from either generation, clears, and refuses an empty generation", () => {
    const map = new Generations<number>(1);
    map.set("a", 1);
    map.set("b", 2);
    map.delete("a");
    map.delete("b");
    expect(map.size).toBe(0);
    map.set("c", 3);
    map.clear();
    expect(map.get("c")).toBeUndefined();
    expect(() => new Generations(0)).toThrow(RangeError);
  });
});
