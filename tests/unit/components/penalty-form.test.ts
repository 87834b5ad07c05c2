// The limit editor's penalty fields <-> the document's penalty object: a limit with a
// penalty keeps it through the form, and a bad value is shown on its own field.

import { describe, expect, it } from "vitest";
import { toLimit, validate, valuesOf } from "@/components/limits/limit-form-values";
import { describeRule } from "@/components/limits/format-limit";
import { normalizeLimit } from "@/lib/control/config/document";

const base = {
  name: "x",
  by: "subject" as const,
  algorithm: "fixed_window" as const,
  limit: 5,
  window: "1s",
};

describe("the editor's penalty fields", () => {
  it("round-trip a growing penalty and describe it", () => {
    const limit = { ...base, penalty: { block: "5m", grow: 2, max: "1h", window: "1d" } };
    const values = valuesOf(limit, "x");
    expect(values).toMatchObject({
      penaltyBlock: "5m",
      penaltyGrow: "2",
      penaltyMax: "1h",
      penaltyWindow: "1d",
    });
    expect(toLimit(values).penalty).toEqual({ block: "5m", grow: 2, max: "1h", window: "1d" });
    expect(validate(values, true).errors).toEqual({});
    expect(describeRule(normalizeLimit(limit))).toContain("penalty 5m, x2 up to 1h within 1d");
  });

  it("leaves the penalty out when its fields are empty, and names the field of a bad value", () => {
    expect(toLimit(valuesOf(base, "x")).penalty).toBeUndefined();
    const values = { ...valuesOf(base, "x"), penaltyBlock: "5m", penaltyGrow: "2" };
    expect(validate(values, true).errors).toMatchObject({ penaltyMax: "required when grow is above 1" });
    expect(validate({ ...values, penaltyBlock: "soon", penaltyGrow: "" }, true).errors).toHaveProperty(
      "penaltyBlock",
    );
  });
});
