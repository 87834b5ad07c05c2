import { describe, expect, it } from "vitest";
import { formatDate, isTimeZone, timeZoneNames } from "@/lib/shared/format-date";
import { axisZoneLabel, formatTime } from "@/components/charts/format";
import { timeAxisProps, timeLabel } from "@/components/charts/time-axis";
import { TimeZoneInput } from "@/lib/control/account/time-zone-input";

// The console's dates and chart times in the reader's time zone (account settings), each
// naming its zone, whatever zone the server or the browser runs in.

const AT = new Date(Date.UTC(2026, 0, 31, 14, 5, 9));
const SUMMER = new Date(Date.UTC(2026, 6, 15, 14, 5, 0));

describe("dates in the reader's time zone", () => {
  it("formats a date in the zone and names it", () => {
    expect(formatDate(AT)).toBe("2026-01-31 14:05 UTC");
    expect(formatDate(AT, "UTC")).toBe("2026-01-31 14:05 UTC");
    expect(formatDate(AT, "Asia/Tokyo")).toBe("2026-01-31 23:05 GMT+9");
    expect(formatDate(AT, "America/New_York")).toBe("2026-01-31 09:05 EST");
    expect(formatDate(AT, "Asia/Tokyo", true)).toBe("2026-01-31 23:05:09 GMT+9");
    expect(formatDate(null, "Asia/Tokyo")).toBe("—");
  });

  it("follows daylight saving time and crosses midnight into the zone's own day", () => {
    expect(formatDate(AT, "Europe/Paris")).toBe("2026-01-31 15:05 GMT+1");
    expect(formatDate(SUMMER, "Europe/Paris")).toBe("2026-07-15 16:05 GMT+2");
    expect(formatDate(new Date(Date.UTC(2026, 0, 31, 23, 30)), "Asia/Tokyo")).toBe("2026-02-01 08:30 GMT+9");
  });

  it("chart times are in the zone; the axis title and the tooltip name it", () => {
    expect(formatTime(AT.getTime(), 60_000, "Asia/Tokyo")).toBe("23:05");
    expect(formatTime(AT.getTime(), 1_000, "Asia/Tokyo")).toBe("23:05:09");
    expect(formatTime(AT.getTime(), 300_000, "Asia/Tokyo")).toBe("Jan 31, 23:05");
    expect(formatTime(AT.getTime(), 60_000)).toBe("14:05");
    expect(axisZoneLabel("Asia/Tokyo")).toBe("time (Asia/Tokyo)");
    expect(timeAxisProps(60_000, "Asia/Tokyo").label.value).toBe("time (Asia/Tokyo)");
    expect(timeAxisProps(60_000, "Asia/Tokyo").tickFormatter(AT.getTime())).toBe("23:05");
    expect(timeLabel(60_000, "Europe/Paris")(AT.getTime())).toBe("15:05 Europe/Paris");
  });

  it("accepts known zones only, naming the field otherwise", () => {
    expect(isTimeZone("Europe/Paris")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("")).toBe(false);
    expect(timeZoneNames()[0]).toBe("UTC");
    expect(timeZoneNames()).toContain("Asia/Tokyo");
    const bad = TimeZoneInput.safeParse({ timeZone: "Mars/Olympus" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["timeZone"]);
    expect(bad.error?.issues[0]?.message).toContain("time zone");
    expect(TimeZoneInput.safeParse({ timeZone: "Asia/Tokyo" }).success).toBe(true);
  });
});
