import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { formatUsedOf, formatWhole } from "@/lib/shared/format-count";
import { LimitCounter } from "@/components/ops/limit-counter";
import { nodeSummary } from "@/components/limit-tree/tree-format";
import type { TreeNode } from "@/lib/control/limit-tree/types";

// Counts in words are whole units with separators: a bucket's fractional level reads
// "1,262 of 10,000", never "1262.4 of 10000".

describe("formatWhole", () => {
  it.each([
    [1262.4, "1,262"],
    [1262.5, "1,263"],
    [10_000, "10,000"],
    [0, "0"],
    [-0.4, "0"],
    [Number.NaN, "—"],
  ])("%d reads %s", (value, text) => {
    expect(formatWhole(value)).toBe(text);
  });
  it("says used of capacity", () => {
    expect(formatUsedOf(1262.4, 10_000)).toBe("1,262 of 10,000");
  });
});

describe("the console's counts", () => {
  it("a counter with a fractional level shows whole units", () => {
    const text = renderToStaticMarkup(
      createElement(LimitCounter, {
        figures: { limit: 10_000, windowMs: 60_000, burst: null, remaining: 8737.6, resetMs: 0 },
      }),
    ).replace(/<!-- -->/g, "");
    expect(text).toContain("1,262 / 10,000 used");
    expect(text).not.toMatch(/\d\.\d/);
  });
  it("a hierarchy row's rejections and what binds it are whole units with separators", () => {
    const node: TreeNode = {
      id: "key:ingest",
      level: "key",
      label: "key ingest",
      depth: 2,
      utilization: 0.5,
      rejected: 1200,
      checksRejected: 1767,
      limits: [],
      binding: { level: "tenant", limit: "writes", route: null, remaining: 1300.8, share: 0.13008 },
      subjects: null,
      drill: null,
    };
    expect(nodeSummary(node)).toBe(
      "50% ok · 1,200 rejected by its limits (1,767 of its checks) · binds: tenant (writes, 1,300 left, 13%)",
    );
  });
});
