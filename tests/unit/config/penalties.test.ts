// penalty in the document: its forms, its compiled value, and every refusal naming its field.

import { describe, expect, it } from "vitest";
import { validateDocument, normalizeLimit } from "@/lib/control/config/document";
import { nextBlockMs } from "@/lib/check/limiter/penalty-args";
import { PenaltyBook } from "@/lib/check/limiter/reference/penalty-book";

const plans = [{ name: "p", limits: [] }];

function errorsOf(limit: Record<string, unknown>): Array<{ path: string; message: string }> {
  const result = validateDocument(
    {
      tenants: [
        {
          slug: "a",
          plan: "p",
          limits: [
            { name: "x", by: "subject", algorithm: "fixed_window", limit: 10, window: "1s", ...limit },
          ],
        },
      ],
    },
    { plans },
  );
  return result.ok ? [] : result.errors;
}

describe("penalty in the document", () => {
  it("accepts a fixed block and a growing one, in milliseconds once normalized", () => {
    expect(errorsOf({ penalty: { block: "5m" } })).toEqual([]);
    expect(errorsOf({ penalty: { block: "5m", grow: 2, max: "1h", window: "1d" } })).toEqual([]);
    expect(errorsOf({ penalty: { block: "5m", grow: 1.5, max: "1h", window: "1d" } })).toEqual([]);
    expect(normalizeLimit({ name: "x", penalty: { block: "5m" } }).penalty).toEqual({
      blockMs: 300_000,
      grow: 1,
      maxMs: 300_000,
      windowMs: 0,
    });
    expect(
      normalizeLimit({ name: "x", penalty: { block: "5m", grow: 2, max: "1h", window: "1d" } }).penalty,
    ).toEqual({ blockMs: 300_000, grow: 2, maxMs: 3_600_000, windowMs: 86_400_000 });
  });

  it("refuses a bad block, grow, max or window, naming the field", () => {
    const at = "tenants[0].limits[0].penalty";
    expect(errorsOf({ penalty: { block: "soon" } })[0]).toMatchObject({ path: `${at}.block` });
    expect(errorsOf({ penalty: {} })[0]).toMatchObject({ path: `${at}.block` });
    expect(errorsOf({ penalty: { block: "1m", grow: 0.5, max: "1h", window: "1d" } })[0]).toMatchObject({
      path: `${at}.grow`,
    });
    expect(errorsOf({ penalty: { block: "1m", grow: 1.234, max: "1h", window: "1d" } })[0]).toMatchObject({
      path: `${at}.grow`,
    });
    expect(errorsOf({ penalty: { block: "1m", grow: 2 } })).toEqual([
      { path: `${at}.max`, message: "required when grow is above 1" },
      { path: `${at}.window`, message: "required when grow is above 1" },
    ]);
    expect(errorsOf({ penalty: { block: "1h", grow: 2, max: "1m", window: "1d" } })).toEqual([
      { path: `${at}.max`, message: "must be at least block" },
    ]);
    expect(errorsOf({ penalty: { block: "1m", max: "1h" } })).toEqual([
      { path: `${at}.max`, message: "max applies only with grow above 1" },
    ]);
    expect(errorsOf({ penalty: { block: "1m", extra: 1 } })).toHaveLength(1);
  });

  it("refuses a penalty on a sliding_log or a local limit", () => {
    expect(errorsOf({ algorithm: "sliding_log", penalty: { block: "1m" } })).toEqual([
      {
        path: "tenants[0].limits[0].penalty",
        message:
          "a penalty works with algorithm fixed_window, sliding_window, token_bucket, leaky_bucket, gcra, and this limit's algorithm is sliding_log",
      },
    ]);
    const local = errorsOf({ consistency: "local", penalty: { block: "1m" } });
    expect(local).toHaveLength(1);
    expect(local[0]?.path).toBe("tenants[0].limits[0].penalty");
  });
});

describe("the reference model's blocks", () => {
  const penalty = { blockMs: 100, grow: 2, maxMs: 350, windowMs: 1_000 };

  it("grows within the window, caps at max, restarts after it", () => {
    expect(nextBlockMs(penalty, null, 0)).toBe(100);
    expect(nextBlockMs(penalty, { length: 100, set: 0 }, 999)).toBe(200);
    expect(nextBlockMs(penalty, { length: 200, set: 0 }, 10)).toBe(350);
    expect(nextBlockMs(penalty, { length: 200, set: 0 }, 1_000)).toBe(100);
    expect(nextBlockMs({ ...penalty, grow: 1.5 }, { length: 101, set: 0 }, 5)).toBe(151);
  });

  it("blocks from a denial, answers the block while it runs, keeps cost_exceeds_capacity", () => {
    const book = new PenaltyBook();
    const first = book.look("k", penalty, "rate_limited", 1_000);
    expect(first).toMatchObject({ reason: "penalty", retryMs: 100 });
    if (first.starts) book.record("k", first.starts);
    expect(book.look("k", penalty, "ok", 1_050)).toMatchObject({ reason: "penalty", retryMs: 50 });
    expect(book.look("k", penalty, "cost_exceeds_capacity", 1_050).reason).toBe("cost_exceeds_capacity");
    expect(book.look("k", penalty, "ok", 1_100)).toMatchObject({ reason: "ok", starts: null });
    expect(book.look("k", penalty, "rate_limited", 1_100)).toMatchObject({ retryMs: 200 });
    book.lift("k");
    expect(book.look("k", penalty, "rate_limited", 1_100)).toMatchObject({ retryMs: 100 });
  });
});
