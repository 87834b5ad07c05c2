import { describe, expect, it } from "vitest";
import { MAX_WINDOW_MS, parseCustomWindow, stepForWindow, urlTime } from "@/lib/usage/read/custom-window";
import { usageHref, liveQuery } from "@/components/usage/usage-hrefs";
import { UsageBatch } from "@/lib/usage/record/batch";
import { offenderDetail } from "@/lib/usage/keys";

// The custom range of the usage charts: both ends or none, in order, bounded, errors naming
// the field; the URL carries it; the step keeps the point count bounded.

const NOW = Date.parse("2026-11-25T12:00:00Z");

describe("custom usage range", () => {
  it("is absent without from and to, and reads ISO times and epoch milliseconds", () => {
    expect(parseCustomWindow(undefined, undefined, NOW)).toEqual({ kind: "none" });
    expect(
      parseCustomWindow("2026-11-25T10:00:00Z", String(Date.parse("2026-11-25T11:00:00Z")), NOW),
    ).toEqual({
      kind: "ok",
      window: { from: Date.parse("2026-11-25T10:00:00Z"), to: Date.parse("2026-11-25T11:00:00Z") },
    });
  });

  it.each([
    ["2026-11-25T10:00:00Z", undefined, "to", "is missing (from is set)"],
    [undefined, "2026-11-25T10:00:00Z", "from", "is missing (to is set)"],
    [
      "yesterday",
      "2026-11-25T10:00:00Z",
      "from",
      'must be a time like "2026-11-25T10:00:00Z" or epoch milliseconds',
    ],
    [
      "2026-11-25T10:00:00Z",
      "2026-13-45",
      "to",
      'must be a time like "2026-11-25T10:00:00Z" or epoch milliseconds',
    ],
    ["2026-11-25T11:00:00Z", "2026-11-25T10:00:00Z", "from", "must be before to"],
    ["2026-11-25T10:00:00Z", "2026-11-25T10:00:00Z", "from", "must be before to"],
    ["2026-11-25T10:00:00Z", "2026-11-25T10:00:30Z", "to", "must be at least 1 minute after from"],
    ["2026-10-01T10:00:00Z", "2026-11-25T10:00:00Z", "from", "must be at most 31 days before to"],
    ["2026-11-26T10:00:00Z", "2026-11-27T10:00:00Z", "from", "is in the future"],
    ["1".repeat(41), "2026-11-25T10:00:00Z", "from", "is too long"],
  ])("from=%s to=%s is refused, naming %s", (from, to, field, message) => {
    expect(parseCustomWindow(from, to, NOW)).toEqual({ kind: "invalid", field, message });
  });

  it("ends at now when it reaches past it", () => {
    const parsed = parseCustomWindow("2026-11-25T11:00:00Z", "2026-11-25T13:00:00Z", NOW);
    expect(parsed).toEqual({ kind: "ok", window: { from: Date.parse("2026-11-25T11:00:00Z"), to: NOW + 1 } });
  });

  it("draws at most 300 points, and no finer than a minute where seconds are gone", () => {
    const recent = NOW - 3_600_000;
    expect(stepForWindow({ from: NOW - 10 * 60_000, to: NOW }, recent)).toBe(5_000);
    expect(stepForWindow({ from: NOW - 50 * 60_000, to: NOW }, recent)).toBe(15_000);
    expect(stepForWindow({ from: NOW - 3 * 3_600_000, to: NOW }, recent)).toBe(60_000);
    expect(stepForWindow({ from: NOW - 2 * 3_600_000, to: NOW - 3_600_000 - 60_000 }, recent)).toBe(60_000);
    expect(stepForWindow({ from: NOW - 7 * 86_400_000, to: NOW }, recent)).toBe(3_600_000);
    const longest = stepForWindow({ from: NOW - MAX_WINDOW_MS, to: NOW }, recent);
    expect(MAX_WINDOW_MS / longest).toBeLessThanOrEqual(300);
  });

  it("is written to the URL (and the live query) as UTC seconds, and dropped by a reset", () => {
    const window = { from: Date.parse("2026-11-25T10:00:00.400Z"), to: Date.parse("2026-11-25T10:30:00Z") };
    expect(urlTime(window.from)).toBe("2026-11-25T10:00:00Z");
    const view = { tenant: "acme", key: "backend", route: null, range: "1h" as const, window };
    expect(usageHref(view)).toBe(
      "/usage/acme?key=backend&range=1h&from=2026-11-25T10%3A00%3A00Z&to=2026-11-25T10%3A30%3A00Z",
    );
    expect(new URLSearchParams(liveQuery(view)).get("to")).toBe("2026-11-25T10:30:00Z");
    expect(usageHref({ ...view, window: null })).toBe("/usage/acme?key=backend&range=1h");
  });
});

describe("offender details in the batch", () => {
  it("counts rejections by key, route and subject, bounded like the subjects", () => {
    const batch = new UsageBatch({ maxFields: 1_000, maxSubjects: 3 });
    const at = NOW;
    for (let i = 0; i < 10; i++) {
      batch.add({ tenantId: "t", keyId: "k1", route: "GET /a", outcome: "rejected", subject: `s${i}` }, at);
    }
    batch.add({ tenantId: "t", keyId: "k1", route: "GET /a", outcome: "rejected", subject: "s0" }, at);
    batch.add({ tenantId: "t", keyId: "k1", route: "GET /a", outcome: "allowed", subject: "s0" }, at);
    const details = batch.tenants.get("t")?.details.get(Math.floor(at / 60_000));
    expect(details?.size).toBe(3);
    expect(details?.get(offenderDetail("k1", "GET /a", "s0"))).toBe(2);
    expect(details?.has(offenderDetail("k1", "GET /a", "s9"))).toBe(false);
  });
});
