import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ShadowPanel } from "@/components/usage/shadow-panel";
import type { UsagePoint } from "@/lib/usage/types";

// The shadow panel never draws an empty chart: no shadow limit says why; a quiet range says
// so in a line; would-be rejections get the chart.

const point = (t: number, shadowRejected: number): UsagePoint => ({
  t,
  allowed: 5,
  rejected: 0,
  shadowRejected,
  degraded: 0,
  leasesAcquired: 0,
  leasesReleased: 0,
  leasesExpired: 0,
});
const html = (points: UsagePoint[], shadowLimits: number | null): string =>
  renderToStaticMarkup(createElement(ShadowPanel, { points, stepMs: 60_000, shadowLimits })).replace(
    /<!-- -->/g,
    "",
  );

describe("shadow panel", () => {
  it("says a tenant without shadow limits has nothing to draw, and how to try one", () => {
    const text = html([point(0, 0), point(60_000, 0)], 0);
    expect(text).toContain("no limit in shadow mode");
    expect(text).not.toContain('data-testid="shadow-chart"');
  });
  it("says a range with shadow limits but no would-be rejection is quiet", () => {
    expect(html([point(0, 0)], 2)).toContain(
      "No check in this range would have been rejected by a shadow limit (2 in shadow mode).",
    );
    expect(html([point(0, 0)], null)).toContain("would have been rejected by a shadow limit.");
  });
  it("draws the chart when a shadow limit would have rejected checks", () => {
    expect(html([point(0, 3)], 1)).toContain('data-testid="shadow-chart"');
  });
});
