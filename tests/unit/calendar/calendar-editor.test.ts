import { describe, expect, it } from "vitest";
import { previewRule, valuesOf } from "@/components/limits/limit-form-values";
import { calendarResetLine } from "@/components/limits/calendar-reset";
import { simulateBurst } from "@/components/limits/burst-simulation";
import { describeRule } from "@/components/limits/format-limit";

// The limit editor with a calendar quota: the line that says when it resets, the rule its
// burst chart simulates (the reference model, periods of the zone) and the one-line summary.

const form = (fields: Record<string, string>) => ({ ...valuesOf(null, "q"), ...fields });

describe("the editor's calendar quota", () => {
  it("says when it resets, in the zone typed, inherited or the tenant's", () => {
    expect(calendarResetLine(form({ period: "week", timeZone: "Europe/Berlin" }), null)).toBe(
      "resets Mon 00:00 Europe/Berlin",
    );
    expect(calendarResetLine(form({}), { period: "day", timeZone: "Asia/Tokyo" })).toBe(
      "resets daily 00:00 Asia/Tokyo",
    );
    expect(calendarResetLine(form({ period: "month" }), null)).toBe(
      "resets on the 1st 00:00 the tenant's time zone (UTC when it sets none)",
    );
    expect(calendarResetLine(form({ period: "day", timeZone: "Mars/Olympus" }), null)).toBe(
      "Mars/Olympus is not an IANA time zone name.",
    );
    expect(calendarResetLine(form({}), null)).toContain("Choose a period");
  });

  it("previews the rule and simulates three periods of a burst", () => {
    const rule = previewRule(
      form({ algorithm: "calendar", limit: "100", period: "day", timeZone: "UTC" }),
      null,
    );
    expect(rule).toMatchObject({
      algorithm: "calendar",
      limit: 100,
      windowMs: 86_400_000,
      calendar: { period: "day", timeZone: "UTC" },
    });
    if (rule === null) throw new Error("no rule");
    const steps = simulateBurst(rule, String);
    const allowed = steps.reduce((sum, s) => sum + s.allowed, 0);
    // three times the rate for three days from midnight UTC: the limit in each day
    expect(allowed).toBe(300);
    expect(steps.reduce((sum, s) => sum + s.rejected, 0)).toBeGreaterThan(0);
    expect(previewRule(form({ algorithm: "calendar", limit: "100" }), null)).toBeNull();
  });

  it("sums it up as limit per period and zone", () => {
    expect(
      describeRule({
        algorithm: "calendar",
        limit: 10_000,
        period: "month",
        timeZone: "Europe/Berlin",
        by: "tenant",
      }),
    ).toBe("10,000 / month (Europe/Berlin) · calendar · per tenant");
  });
});
