// The bound the limit editor shows next to consistency: (N - 1) x rate x I.

import { describe, expect, it } from "vitest";
import { localSettingOf, overAdmissionBound } from "@/components/limits/over-admission";

describe("over-admission bound", () => {
  it("is (N - 1) x limit/window x syncEvery, rounded up, and 0 for one server", () => {
    expect(overAdmissionBound(2, 1_000_000, 60_000, 100)).toBe(1_667);
    expect(overAdmissionBound(5, 100, 1_000, 100)).toBe(40);
    expect(overAdmissionBound(1, 100, 1_000, 100)).toBe(0);
  });

  it("reads the form over the inherited values, with the defaults", () => {
    expect(localSettingOf({ consistency: "", syncEvery: "" }, null)).toEqual({
      consistency: "exact",
      syncEveryMs: 100,
    });
    expect(
      localSettingOf({ consistency: "", syncEvery: "1s" }, { consistency: "local", syncEveryMs: 50 }),
    ).toEqual({ consistency: "local", syncEveryMs: 1_000 });
  });
});
