import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { zeroFigures } from "@/lib/check/health/health-figures";
import { CheckHealthPanel } from "@/components/health/check-health-panel";
import { DecisionLogTable } from "@/components/ops/decision-log-table";
import { HistoryView } from "@/components/ops/history-view";
import { OverrideBadge, overrideEnd } from "@/components/ops/override-badge";
import { SkippedLimits } from "@/components/ops/skipped-limits";
import { TrafficNote } from "@/components/tenants/traffic-note";

// The server-rendered dates that still said UTC, now in the reader's time zone (account
// settings) and naming it: the override badge, the overview's "up to", the decision log,
// the configuration history and the check endpoint's health.

const AT = "2026-01-31T14:05:09.000Z";
const TOKYO = "Asia/Tokyo";
const html = (element: ReactElement): string => renderToStaticMarkup(element).replace(/<!-- -->/g, "");

describe("server-rendered dates in the reader's time zone", () => {
  it("the override badge ends in the zone, with the date when that is another day there", () => {
    // 19:00 in Tokyo, the override ends at 23:05 the same day there
    expect(overrideEnd(AT, new Date(Date.UTC(2026, 0, 31, 10)), TOKYO)).toBe("23:05 GMT+9");
    // the same day in UTC, the next one in Tokyo
    const late = "2026-01-31T16:00:00.000Z";
    expect(overrideEnd(late, new Date(Date.UTC(2026, 0, 31, 14)), "UTC")).toBe("16:00 UTC");
    expect(overrideEnd(late, new Date(Date.UTC(2026, 0, 31, 14)), TOKYO)).toBe("2026-02-01 01:00 GMT+9");
    const override = { id: "o1", value: 5, endsAt: "2030-01-31T14:05:00.000Z" };
    const badge = html(createElement(OverrideBadge, { override, zone: TOKYO }));
    expect(badge).toContain("override until 2030-01-31 23:05 GMT+9");
    expect(badge).toContain('title="Temporary override o1: 5 until 2030-01-31 23:05 GMT+9"');
    expect(html(createElement(OverrideBadge, { override }))).toContain("override until 2030-01-31 14:05 UTC");
    const skipped = [
      {
        name: "cap",
        by: "tenant",
        reason: "override",
        override: { ...override, value: "disabled" as const },
      },
    ];
    expect(html(createElement(SkippedLimits, { skipped, label: "Not evaluated", zone: TOKYO }))).toContain(
      "disabled: override until 2030-01-31 23:05 GMT+9",
    );
  });

  it("the overview's traffic is up to a time of the zone", () => {
    const note = html(createElement(TrafficNote, { until: new Date(AT), zone: TOKYO }));
    expect(note).toContain("last 15 rolled-up minutes, up to 23:05 GMT+9; the list is re-read every 15 s.");
    expect(html(createElement(TrafficNote, { until: null }))).toContain(
      "last 15 rolled-up minutes; the list",
    );
  });

  it("the decision log's times, to the millisecond", () => {
    const rows = [
      {
        at: AT,
        key: "backend",
        route: null,
        subject: null,
        outcome: "rejected" as const,
        reason: "limit",
        deniedBy: "cap",
      },
    ];
    const table = html(createElement(DecisionLogTable, { rows, zone: TOKYO }));
    expect(table).toContain("2026-01-31 23:05:09.000 GMT+9");
    expect(table).not.toContain("(UTC)");
  });

  it("the configuration history's versions", () => {
    const page = {
      versions: [
        {
          version: 3,
          at: AT,
          actors: ["ops@example.test"],
          changes: [],
          restorable: false,
          rollbackable: false,
        },
      ],
      nextBefore: null,
    };
    const view = html(
      createElement(HistoryView, {
        page,
        changes: new Map(),
        tenant: null,
        actions: {
          rollback: null,
          preview: () => Promise.resolve({ ok: false as const, message: "no" }),
          revert: null,
        },
        olderHref: null,
        newestVersion: 3,
        zone: TOKYO,
      }),
    );
    expect(view).toContain("2026-01-31 23:05:09 GMT+9");
  });

  it("the check endpoint's health minutes", () => {
    const { latency: _latency, ...counts } = zeroFigures();
    const minute = { ...counts, requests: 12, at: "2026-01-31T14:05:00.000Z", fronts: 1, p50Ms: 1, p99Ms: 3 };
    const panel = html(
      createElement(CheckHealthPanel, {
        health: { minutes: [minute], total: minute, spanMinutes: 60 },
        zone: TOKYO,
      }),
    );
    expect(panel).toContain("23:05 GMT+9");
    expect(panel).not.toContain("(UTC)");
  });
});
