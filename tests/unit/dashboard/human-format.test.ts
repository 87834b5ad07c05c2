import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { formatSpan } from "@/lib/shared/format-span";
import { formatDate, formatDateSeconds, formatTimeOfDay } from "@/lib/shared/format-date";
import { LimitCounter } from "@/components/ops/limit-counter";
import { RedisMemory } from "@/components/tenants/redis-memory";

// Durations and dates as people read them: no raw milliseconds, no ISO "T...Z" in the console.

const html = (el: Parameters<typeof renderToStaticMarkup>[0]): string =>
  renderToStaticMarkup(el).replace(/<!-- -->/g, "");

describe("formatSpan", () => {
  it.each([
    [0, "0 ms"],
    [-5, "0 ms"],
    [0.4, "1 ms"],
    [40, "40 ms"],
    [999, "999 ms"],
    [1_500, "1.5 s"],
    [2_000, "2 s"],
    [9_960, "10 s"],
    [12_345, "12 s"],
    [59_600, "1 min"],
    [97_283, "1 min 37 s"],
    [120_000, "2 min"],
    [3_599_700, "1 h"],
    [7_500_000, "2 h 5 min"],
    [86_400_000, "1 d"],
    [100 * 3_600_000, "4 d 4 h"],
  ])("%d ms reads %s", (ms, text) => {
    expect(formatSpan(ms)).toBe(text);
  });
});

describe("dates", () => {
  const at = Date.UTC(2026, 0, 31, 14, 5, 9, 123);
  it("shows UTC to the minute, second or millisecond, from a Date, an ISO string or a number", () => {
    expect(formatDate(new Date(at))).toBe("2026-01-31 14:05 UTC");
    expect(formatDate(new Date(at).toISOString())).toBe("2026-01-31 14:05 UTC");
    expect(formatDateSeconds(at)).toBe("2026-01-31 14:05:09 UTC");
    expect(formatDateSeconds(at, true)).toBe("2026-01-31 14:05:09.123 UTC");
    expect(formatTimeOfDay(at)).toBe("14:05 UTC");
    expect(formatTimeOfDay(at, true)).toBe("14:05:09 UTC");
  });
  it("a missing or broken date is a dash", () => {
    expect(formatDate(null)).toBe("—");
    expect(formatDateSeconds("not a date")).toBe("—");
  });
});

describe("the console's texts", () => {
  it("a counter says when it is full again in minutes and seconds", () => {
    const text = html(
      createElement(LimitCounter, {
        figures: { limit: 100, windowMs: 60_000, burst: null, remaining: 40, resetMs: 97_283 },
      }),
    );
    expect(text).toContain("full again in 1 min 37 s");
    expect(text).not.toMatch(/\d+ms/);
  });
  it("Redis memory says when it was measured without an ISO timestamp", () => {
    const text = html(
      createElement(RedisMemory, {
        memory: { bytes: 2048, keys: 3, complete: true, measuredAt: Date.UTC(2026, 0, 31, 14, 5, 9) },
      }),
    );
    expect(text).toContain("measured 2026-01-31 14:05 UTC");
    expect(text).not.toMatch(/\d{4}-\d\d-\d\dT/);
  });
});
