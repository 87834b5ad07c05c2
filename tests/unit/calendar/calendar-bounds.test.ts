import { describe, expect, it } from "vitest";
import { describeReset, isTimeZone, periodBounds, type CalendarPeriod } from "@/lib/shared/calendar";
import { calendarArgs, currentPeriod } from "@/lib/check/limiter/calendar";
import { rule } from "../limiter/rules";

// Calendar periods' bounds against instants written out by hand from the zones' published
// rules (EU: last Sunday of March 01:00 UTC forward, of October 01:00 UTC back; US: second
// Sunday of March 07:00 UTC, first Sunday of November 06:00 UTC).

const at = (iso: string): number => Date.parse(iso);
const H = 3_600_000;

function bounds(period: CalendarPeriod, zone: string, now: string): [string, string, number] {
  const b = periodBounds(period, zone, at(now));
  return [new Date(b.start).toISOString(), new Date(b.end).toISOString(), (b.end - b.start) / H];
}

describe("calendar period bounds", () => {
  it("a Berlin day is 23 h on the last Sunday of March and 25 h on the last of October", () => {
    expect(bounds("day", "Europe/Berlin", "2025-03-30T12:00:00Z")).toEqual([
      "2025-03-29T23:00:00.000Z",
      "2025-03-30T22:00:00.000Z",
      23,
    ]);
    expect(bounds("day", "Europe/Berlin", "2025-10-26T12:00:00Z")).toEqual([
      "2025-10-25T22:00:00.000Z",
      "2025-10-26T23:00:00.000Z",
      25,
    ]);
    // the days around them are 24 h
    expect(bounds("day", "Europe/Berlin", "2025-03-29T12:00:00Z")[2]).toBe(24);
    expect(bounds("day", "Europe/Berlin", "2025-03-31T12:00:00Z")[2]).toBe(24);
  });

  it("the instants next to a boundary belong to the periods either side", () => {
    const end = at("2025-03-30T22:00:00Z");
    expect(periodBounds("day", "Europe/Berlin", end - 1).end).toBe(end);
    expect(periodBounds("day", "Europe/Berlin", end).start).toBe(end);
    // inside the hour the clocks skip (02:00-03:00 local), still the same day
    expect(periodBounds("day", "Europe/Berlin", at("2025-03-30T01:30:00Z")).start).toBe(
      at("2025-03-29T23:00:00Z"),
    );
    // inside the hour that repeats (02:00-03:00 local twice), both times the same day
    for (const t of ["2025-10-26T00:30:00Z", "2025-10-26T01:30:00Z"])
      expect(periodBounds("day", "Europe/Berlin", at(t)).end).toBe(at("2025-10-26T23:00:00Z"));
  });

  it("a New York month across a DST switch is an hour shorter or longer", () => {
    // March 2025: from EST midnight (05:00 UTC) to EDT midnight (04:00 UTC): 31 d - 1 h
    expect(bounds("month", "America/New_York", "2025-03-15T12:00:00Z")).toEqual([
      "2025-03-01T05:00:00.000Z",
      "2025-04-01T04:00:00.000Z",
      31 * 24 - 1,
    ]);
    // November 2025: from EDT to EST: 30 d + 1 h
    expect(bounds("month", "America/New_York", "2025-11-20T12:00:00Z")).toEqual([
      "2025-11-01T04:00:00.000Z",
      "2025-12-01T05:00:00.000Z",
      30 * 24 + 1,
    ]);
    // 2025-03-01T04:59Z is still February in New York
    expect(bounds("month", "America/New_York", "2025-03-01T04:59:59Z")[0]).toBe("2025-02-01T05:00:00.000Z");
  });

  it("February has 29 days in a leap year and 28 otherwise; December ends at the next year", () => {
    expect(bounds("month", "UTC", "2024-02-29T23:59:59Z")).toEqual([
      "2024-02-01T00:00:00.000Z",
      "2024-03-01T00:00:00.000Z",
      29 * 24,
    ]);
    expect(bounds("month", "UTC", "2025-02-10T00:00:00Z")[2]).toBe(28 * 24);
    expect(bounds("month", "UTC", "2100-02-10T00:00:00Z")[2]).toBe(28 * 24); // not a leap year
    expect(bounds("month", "Asia/Tokyo", "2025-12-31T20:00:00Z")).toEqual([
      "2025-12-31T15:00:00.000Z",
      "2026-01-31T15:00:00.000Z",
      31 * 24,
    ]);
  });

  it("weeks are ISO weeks: Monday 00:00 to Monday 00:00, Sunday the last day", () => {
    // Sunday 2025-03-30 belongs to the week from Monday 2025-03-24, a week of 167 h in Berlin
    expect(bounds("week", "Europe/Berlin", "2025-03-30T12:00:00Z")).toEqual([
      "2025-03-23T23:00:00.000Z",
      "2025-03-30T22:00:00.000Z",
      167,
    ]);
    // Monday 00:00 starts a new week
    expect(bounds("week", "UTC", "2025-03-31T00:00:00Z")[0]).toBe("2025-03-31T00:00:00.000Z");
    // across the year: Monday 2024-12-30 to Monday 2025-01-06
    expect(bounds("week", "UTC", "2025-01-01T10:00:00Z")).toEqual([
      "2024-12-30T00:00:00.000Z",
      "2025-01-06T00:00:00.000Z",
      168,
    ]);
    // Sunday late in Berlin is still Sunday, though UTC is already Monday's
    expect(bounds("week", "Europe/Berlin", "2025-01-05T23:30:00Z")[0]).toBe("2025-01-05T23:00:00.000Z");
  });

  it("a day whose midnight does not exist starts when the clock jumps", () => {
    // Santiago: 2024-09-08 00:00 local jumps to 01:00 (04:00 UTC); the day is 23 h
    expect(bounds("day", "America/Santiago", "2024-09-08T12:00:00Z")).toEqual([
      "2024-09-08T04:00:00.000Z",
      "2024-09-09T03:00:00.000Z",
      23,
    ]);
  });

  it("half-hour zones and the southern hemisphere", () => {
    expect(bounds("day", "Asia/Kolkata", "2025-06-01T20:00:00Z")[0]).toBe("2025-06-01T18:30:00.000Z");
    // Sydney leaves DST on the first Sunday of April: 2025-04-06 is 25 h
    expect(bounds("day", "Australia/Sydney", "2025-04-06T05:00:00Z")[2]).toBe(25);
  });

  it("knows IANA names and refuses the rest", () => {
    for (const zone of [
      "UTC",
      "Europe/Berlin",
      "America/Argentina/Buenos_Aires",
      "Asia/Kolkata",
      "Etc/GMT+5",
    ])
      expect(isTimeZone(zone), zone).toBe(true);
    for (const zone of ["Mars/Olympus", "+01:00", "", "Europe/Berlin ", "../etc", "x".repeat(65)])
      expect(isTimeZone(zone), zone).toBe(false);
    expect(() => periodBounds("day", "Mars/Olympus", 0)).toThrow(RangeError);
  });

  it("says when it resets", () => {
    expect(describeReset("week", "Europe/Berlin")).toBe("resets Mon 00:00 Europe/Berlin");
    expect(describeReset("day", "UTC")).toBe("resets daily 00:00 UTC");
    expect(describeReset("month", "America/New_York")).toBe("resets on the 1st 00:00 America/New_York");
  });
});

describe("the check path's calendar integers", () => {
  const daily = rule("calendar", 10, 86_400_000, { calendar: { period: "day", timeZone: "Europe/Berlin" } });

  it("sends code 8, L and the period's start and end as W and B", () => {
    const args = calendarArgs(daily, at("2025-03-30T12:00:00Z"));
    expect(args).toEqual([8, 10, at("2025-03-29T23:00:00Z"), at("2025-03-30T22:00:00Z"), 0, -1]);
  });

  it("keeps one array for the period and makes the next one past its end", () => {
    const first = calendarArgs(daily, at("2025-03-30T02:00:00Z"));
    expect(calendarArgs(daily, at("2025-03-30T21:59:59.999Z"))).toBe(first);
    const next = calendarArgs(daily, at("2025-03-30T22:00:00Z"));
    expect(next).not.toBe(first);
    expect(next[2]).toBe(at("2025-03-30T22:00:00Z"));
    // a clock set back gets the earlier period again
    expect(calendarArgs(daily, at("2025-03-30T02:00:00Z"))[2]).toBe(first[2]);
  });

  it("shares the period per zone, whatever the rule", () => {
    const a = currentPeriod("month", "America/New_York", at("2025-03-15T12:00:00Z"));
    expect(currentPeriod("month", "America/New_York", at("2025-03-20T12:00:00Z"))).toBe(a);
  });

  it("refuses a calendar rule without its period", () => {
    expect(() => calendarArgs({ ...daily, calendar: undefined }, 0)).toThrow(/period/);
  });
});
