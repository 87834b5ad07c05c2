import { describe, expect, it } from "vitest";
import { globalSingleton, globalSlot } from "@/lib/shared/global-singleton";

// A process-wide value is made once and shared by every copy of its module: two
// singletons of one name (as a module loaded twice makes) see the same value.

describe("globalSingleton", () => {
  it("makes the value once, shared by every holder of the name, until it is cleared", () => {
    let made = 0;
    const create = (): { n: number } => ({ n: ++made });
    const one = globalSingleton("sluiceTestSingleton", create);
    const copy = globalSingleton("sluiceTestSingleton", create);
    expect(one.peek()).toBeUndefined();
    const value = one.get();
    expect(copy.get()).toBe(value);
    expect(globalSlot<{ n: number }>("sluiceTestSingleton").peek()).toBe(value);
    expect(made).toBe(1);
    copy.set(undefined);
    expect(one.peek()).toBeUndefined();
    expect(one.get()).toEqual({ n: 2 });
    one.set(undefined);
  });
});
