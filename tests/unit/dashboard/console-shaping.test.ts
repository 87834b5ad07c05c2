import { describe, expect, it } from "vitest";
import { formatTime } from "@/components/charts/format";
import { timeAxisProps, timeLabel, yAxisTitle } from "@/components/charts/time-axis";
import { fillingBucketStart, isolatedPoints, ratePoints } from "@/components/charts/rate-points";
import { axisUnit, inUnit } from "@/components/limits/burst-axis";
import { usageHeading } from "@/components/usage/usage-heading";
import { routeLabel, UNMATCHED_ROUTE_MARK } from "@/lib/shared/usage-route";
import { ZERO_COUNTS } from "@/lib/usage/types";
import { limitLinesOf } from "@/lib/usage/read/limit-lines";

// What the console's charts and headings derive from the data, without a browser.

const point = (t: number, allowed: number, rejected: number) => ({ t, ...ZERO_COUNTS, allowed, rejected });

describe("rejection rate", () => {
  it("marks a point between gaps as isolated (a one-point line draws nothing)", () => {
    const data = ratePoints([point(0, 0, 0), point(1, 2, 2), point(2, 0, 0), point(3, 1, 0), point(4, 1, 1)]);
    expect(data.map((d) => d.rate)).toEqual([null, 0.5, null, 0, 0.5]);
    expect([...isolatedPoints(data)]).toEqual([1]);
  });

  it("knows the newest bucket is still filling only while now is inside it", () => {
    const points = [point(0, 1, 0), point(60_000, 1, 0)];
    expect(fillingBucketStart(points, 60_000, 90_000)).toBe(60_000);
    expect(fillingBucketStart(points, 60_000, 120_000)).toBeNull();
    expect(fillingBucketStart([], 60_000, 0)).toBeNull();
  });
});

describe("time axis", () => {
  it("shows the date from 5 min steps up (24 h crosses midnight), times only below", () => {
    const t = Date.UTC(2026, 10, 3, 12, 0);
    expect(formatTime(t, 300_000)).toMatch(/Nov|11/);
    expect(formatTime(t, 5_000)).not.toMatch(/Nov/);
  });
  it("draws times in UTC, 24-hour, and says so on the axis and in the tooltip", () => {
    const t = Date.UTC(2026, 10, 3, 23, 5, 10);
    expect(formatTime(t, 5_000)).toBe("23:05:10");
    expect(formatTime(t, 60_000)).toBe("23:05");
    expect(formatTime(t, 300_000)).toBe("Nov 3, 23:05");
    expect(timeAxisProps(60_000, "UTC").label.value).toBe("time (UTC)");
    expect(timeLabel(60_000, "UTC")(t)).toBe("23:05 UTC");
  });
  it("centres a rotated y-axis title on the axis, so a long one is not clipped", () => {
    expect(yAxisTitle("checks per 5 min")).toMatchObject({ angle: -90, textAnchor: "middle" });
  });
});

describe("burst chart axis", () => {
  it("uses one unit for the whole axis", () => {
    expect(axisUnit(3_300).name).toBe("s");
    expect([0, 1_100, 2_200].map((ms) => inUnit(ms, axisUnit(3_300)))).toEqual(["0", "1.1", "2.2"]);
    expect(axisUnit(750).name).toBe("ms");
    expect(axisUnit(3 * 3_600_000).name).toBe("h");
    expect(axisUnit(3 * 60_000).name).toBe("min");
  });
});

describe("usage labels", () => {
  it("says what a view is narrowed to", () => {
    expect(usageHeading({ tenant: "acme", key: null, route: null })).toBe("Usage of acme");
    expect(usageHeading({ tenant: "acme", key: "backend", route: "POST /v1/search" })).toBe(
      "Usage of acme · key backend · route POST /v1/search",
    );
  });

  it("tells an unmatched route from none", () => {
    expect([routeLabel(""), routeLabel(UNMATCHED_ROUTE_MARK), routeLabel("GET /x")]).toEqual([
      "(no route)",
      "(unmatched route)",
      "GET /x",
    ]);
  });
});

describe("limit lines", () => {
  it("puts each limit on the traffic axis as checks per bucket, tightest first, once per scope", () => {
    const lines = limitLinesOf(
      [
        { name: "hour", limit: 3_600, windowMs: 3_600_000, by: "tenant", route: null },
        { name: "burst", limit: 10, windowMs: 1_000, by: "key", route: null },
        { name: "hour", limit: 3_600, windowMs: 3_600_000, by: "tenant", route: null },
      ],
      5_000,
    );
    expect(lines.map((l) => [l.limit, l.perStep])).toEqual([
      ["hour", 5],
      ["burst", 50],
    ]);
  });
});
