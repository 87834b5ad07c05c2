import { describe, expect, it } from "vitest";
import {
  capDenials,
  mergeDenials,
  OTHER,
  parseDenialField,
  type LimitDenial,
} from "@/lib/shared/limit-denial";
import { denialSpans } from "@/lib/usage/read/denial-spans";
import { limitDenialField } from "@/lib/usage/keys";

const HOUR = 3_600_000;
const MINUTE = 60_000;

const denial = (keyId: string, name: string, count: number, by: LimitDenial["by"] = "key"): LimitDenial => ({
  keyId,
  route: "GET /a",
  name,
  level: "tenant",
  by,
  count,
});

describe("mergeDenials", () => {
  it("sums the same (key, route, limit) across lists and keeps the others apart", () => {
    const merged = mergeDenials(
      [denial("k1", "per-key", 2), denial("k2", "per-key", 1)],
      [denial("k1", "per-key", 3), denial("k1", "per-key", 4, "subject")],
    );
    expect(merged).toEqual([
      denial("k1", "per-key", 5),
      denial("k2", "per-key", 1),
      denial("k1", "per-key", 4, "subject"),
    ]);
  });

  it("leaves its inputs as they were", () => {
    const list = [denial("k1", "per-key", 2)];
    mergeDenials(list, list);
    expect(list[0]?.count).toBe(2);
  });
});

describe("capDenials", () => {
  it("keeps the largest rows and counts the rest under their limit as OTHER, none lost", () => {
    const rows = [
      denial("k1", "per-key", 9),
      denial("k2", "per-key", 1),
      denial("k3", "per-key", 5),
      denial("k4", "per-key", 2),
      denial("k5", "tenant-cap", 1, "tenant"),
    ];
    const capped = capDenials(rows, 2);
    expect(capped).toEqual([
      denial("k1", "per-key", 9),
      denial("k3", "per-key", 5),
      { ...denial(OTHER, "per-key", 3), route: OTHER },
      { ...denial(OTHER, "tenant-cap", 1, "tenant"), route: OTHER },
    ]);
    const total = (list: LimitDenial[]) => list.reduce((s, d) => s + d.count, 0);
    expect(total(capped)).toBe(total(rows));
  });

  it("keeps the same rows on ties whatever the order they came in", () => {
    const rows = [denial("b", "x", 1), denial("a", "x", 1), denial("c", "x", 1)];
    expect(capDenials(rows, 1)).toEqual(capDenials([...rows].reverse(), 1));
  });
});

describe("parseDenialField", () => {
  it("reads what the recorder writes and skips what it does not", () => {
    const field = limitDenialField("k1", "GET /a", { name: "per-key", level: "tenant", by: "key" });
    expect(parseDenialField(field, "7")).toEqual(denial("k1", "per-key", 7));
    expect(parseDenialField(field, "x")).toBeNull();
    expect(parseDenialField("not json", "1")).toBeNull();
    expect(parseDenialField('["k","r","n","nowhere","key"]', "1")).toBeNull();
  });
});

describe("denialSpans", () => {
  const now = 100 * HOUR + 25 * MINUTE;
  const oldest = now - HOUR;

  it("reads a range Redis holds from Redis alone, to the minute", () => {
    const spans = denialSpans(now - 15 * MINUTE, now + 1, { minute: 6_024, hour: 100 }, oldest);
    expect(spans).toEqual({
      hours: null,
      minutes: null,
      redis: { from: now - 15 * MINUTE, to: now + 1 },
      since: now - 15 * MINUTE,
    });
  });

  it("cuts a long range at the watermarks: stored hours, stored minutes, then Redis", () => {
    const m = { minute: 100 * 60 + 20, hour: 100 };
    const spans = denialSpans(now - 24 * HOUR, now + 1, m, oldest);
    expect(spans).toEqual({
      // the first hour whole, as the tree's other counts read it
      hours: { from: 76 * HOUR, to: 100 * HOUR },
      minutes: { from: 100 * HOUR, to: 100 * HOUR + 20 * MINUTE },
      redis: { from: 100 * HOUR + 20 * MINUTE, to: now + 1 },
      since: 76 * HOUR,
    });
  });

  it("reads no minute from two stores: the parts meet and never overlap", () => {
    for (const minute of [100 * 60, 100 * 60 + 1, 100 * 60 + 24]) {
      const s = denialSpans(now - 7 * 24 * HOUR, now + 1, { minute, hour: 100 }, oldest);
      const parts = [s.hours, s.minutes, s.redis].filter((p) => p !== null);
      for (let i = 1; i < parts.length; i++) expect(parts[i]?.from).toBe(parts[i - 1]?.to);
      expect(parts.at(-1)?.to).toBe(now + 1);
    }
  });

  it("says so when the rollup fell behind past what Redis keeps", () => {
    const spans = denialSpans(now - 24 * HOUR, now + 1, { minute: 97 * 60, hour: 97 }, oldest);
    expect(spans).toEqual({
      hours: null,
      minutes: null,
      redis: { from: oldest, to: now + 1 },
      since: oldest,
    });
  });
});
