import { describe, expect, it } from "vitest";
import {
  SUBJECTS_PER_MINUTE,
  SubjectSeries,
  TRACKED_PER_MINUTE,
  WRITE_EVERY_MS,
  sparse,
  unsparse,
  type SeriesValue,
} from "@/lib/usage/subject-series";

// The replay's per-subject series: counted in memory per second, written per tenant-minute
// as the busiest subjects plus the others' counts, and bounded against random subjects.

const M = 60_000 * 1_000; // a minute boundary
const decode = (value: string) => JSON.parse(value) as SeriesValue;
const total = (text: string) => unsparse(text).reduce((sum, [, c]) => sum + c, 0);

describe("subject series", () => {
  it("round-trips sparse counts and ignores junk", () => {
    const counts = new Uint32Array(60);
    counts[0] = 3;
    counts[59] = 70_000;
    expect(sparse(counts)).toBe("0:3,59:70000");
    expect(unsparse("0:3,59:70000")).toEqual([
      [0, 3],
      [59, 70_000],
    ]);
    expect(unsparse("60:1,x:2,3:-1,4:5")).toEqual([[4, 5]]);
  });

  it("counts per second, route and subject; writes finished minutes, and current ones every few seconds", () => {
    const series = new SubjectSeries("p1");
    series.add("t1", "GET /x", "ip|1", M + 3_000);
    series.add("t1", "GET /x", "ip|1", M + 3_500);
    series.add("t1", "", "ip-2", M + 4_000);
    expect(series.drain(M + 4_000)).toEqual([]); // not due yet
    const [write] = series.drain(M + 3_000 + WRITE_EVERY_MS + 1_000);
    expect(write).toMatchObject({ tenantId: "t1", minute: M / 60_000, field: "p1" });
    expect(decode(write!.value)).toEqual({
      s: [
        ["GET /x", "ip|1", "3:2"],
        ["", "ip-2", "4:1"],
      ],
      o: "",
    });
    expect(series.pending).toBe(false);
    series.add("t1", "GET /x", "ip|1", M + 59_000);
    const [final] = series.drain(M + 61_000); // the minute ended: written at once, whole
    expect(decode(final!.value).s[0]).toEqual(["GET /x", "ip|1", "3:2,59:1"]);
  });

  it("writes the busiest subjects of a minute and counts the rest, however many subjects come", () => {
    const series = new SubjectSeries("p1");
    // a heavy client shows up early in its minute; then a flood of one-off subjects
    for (let i = 0; i < 30; i++) series.add("t1", "GET /x", "heavy", M + 10_000);
    for (let s = 0; s < 5_000; s++) series.add("t1", "GET /x", `s-${s}`, M + (s % 60) * 1_000);
    const [write] = series.drain(M, true);
    const value = decode(write!.value);
    expect(value.s).toHaveLength(SUBJECTS_PER_MINUTE);
    expect(value.s[0]).toEqual(["GET /x", "heavy", "10:30"]);
    const kept = value.s.reduce((sum, [, , counts]) => sum + total(counts), 0);
    expect(kept + total(value.o)).toBe(5_030);
    expect(total(value.o)).toBeGreaterThanOrEqual(5_000 - TRACKED_PER_MINUTE);
  });

  it("keeps tenants apart and forgets quiet ones", () => {
    const series = new SubjectSeries("p1");
    series.add("t1", "GET /x", "a", M);
    series.add("t2", "GET /x", "a", M);
    expect(series.drain(M, true).map((w) => w.tenantId)).toEqual(["t1", "t2"]);
    expect(series.drain(M + 5 * 60_000)).toEqual([]);
    series.add("t1", "GET /x", "b", M + 5 * 60_000);
    expect(decode(series.drain(M + 5 * 60_000, true)[0]!.value).s).toEqual([["GET /x", "b", "0:1"]]);
  });
});
