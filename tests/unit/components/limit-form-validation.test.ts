import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { previewBlocker, previewRule, validate, valuesOf } from "@/components/limits/limit-form-values";
import { BurstChart } from "@/components/limits/burst-chart";
import { fullLimitSchema } from "@/lib/control/config/document";
import type { LimitFields } from "@/lib/control/config/document";

// The limit editor checks as you type with the server's own schema and messages, and its
// burst preview never simulates a fallback for a field typed wrong.

const base = { ...valuesOf(null, "cap"), by: "tenant", algorithm: "token_bucket", window: "1s" };
const inherited = { algorithm: "token_bucket", limit: 90, windowMs: 1_000, by: "tenant" } as LimitFields;

describe("the editor's validation", () => {
  it("says what a number field needs for text in it, as the server does, not zod's raw message", () => {
    for (const limit of ["abc", "1.5", "10x"]) {
      const message = validate({ ...base, limit }, true).errors.limit;
      expect(message).toMatch(/^must be a whole number from 1 to 1,000,000,000/);
      expect(message).not.toMatch(/expected number|received/);
    }
    expect(validate({ ...base, limit: "10", burst: "lots" }, true).errors.burst).toMatch(
      /^must be a whole number from 1 to 1,000,000,000/,
    );
    // the same message from the server's schema for a wrong type in a document
    const server = fullLimitSchema.safeParse({
      name: "cap",
      by: "tenant",
      algorithm: "gcra",
      window: "1s",
      limit: "x",
    });
    expect(server.error?.issues[0]?.message).toBe(
      'must be a whole number from 1 to 1,000,000,000, not text "x"',
    );
  });

  it("stops the preview on a wrong typed value instead of simulating the inherited one", () => {
    const values = { ...valuesOf(null, "cap"), limit: "-5" };
    const errors = validate(values, false).errors;
    expect(errors.limit).toBe("must be at least 1");
    // what the preview alone would do: fall back to the inherited 90
    expect(previewRule(values, inherited)?.limit).toBe(90);
    expect(previewBlocker(values, errors)).toEqual({
      field: "limit",
      label: "Limit",
      message: "must be at least 1",
    });
    // an empty field inherits: nothing blocks
    expect(previewBlocker(valuesOf(null, "cap"), validate(valuesOf(null, "cap"), false).errors)).toBeNull();
  });

  it("the preview says which field to fix and shows no pass count", () => {
    const text = renderToStaticMarkup(
      createElement(BurstChart, { rule: null, waitingFor: "Limit must be at least 1" }),
    ).replace(/<!-- -->/g, "");
    expect(text).toContain("No preview until the form is right: Limit must be at least 1.");
    expect(text).not.toContain("pass");
  });
});
