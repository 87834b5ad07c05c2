// The line diff of the import preview and the CLI: a small edit in a large export shows as
// that edit, quickly, whatever else the texts share.
import { describe, expect, it } from "vitest";
import { lineDiff, lines } from "@/packages/client/src/cli/line-diff";

/** An export-like document of `count` lines, many of them alike (as limits are). */
function exportOf(count: number): string[] {
  const out = ["tenants:"];
  for (let i = 0; out.length < count; i += 1) {
    out.push(`  - slug: tenant-${i}`, "    plan: free", "    limits:");
    out.push(`      - { name: api, by: key, limit: ${100 + (i % 7)}, window: 1s }`);
  }
  return out.slice(0, count);
}

function counted(a: string[], b: string[]): { removed: number; added: number; ms: number } {
  const started = performance.now();
  const diff = lineDiff(a, b);
  const ms = performance.now() - started;
  return {
    removed: diff.filter((l) => l.kind === "-").length,
    added: diff.filter((l) => l.kind === "+").length,
    ms,
  };
}

describe("lineDiff", () => {
  const before = exportOf(10_540);

  it("shows one character changed in a 10,540-line export as one line changed", () => {
    const after = [...before];
    after[5_272] = after[5_272]!.replace("limit: 1", "limit: 2");
    expect(after[5_272]).not.toBe(before[5_272]);
    const { removed, added, ms } = counted(before, after);
    expect({ removed, added }).toEqual({ removed: 1, added: 1 });
    // about 10 ms alone; the bound leaves room for a loaded machine
    expect(ms).toBeLessThan(2_000);
  });

  it("keeps the shared middle when the first and last lines differ too", () => {
    const after = [...before];
    after[0] = "# exported at version 8";
    after[5_272] = `${after[5_272]} # edited`;
    after[after.length - 1] = `${after.at(-1)} # edited`;
    const { removed, added, ms } = counted(before, after);
    expect({ removed, added }).toEqual({ removed: 3, added: 3 });
    expect(ms).toBeLessThan(2_000);
  });

  it("replaces everything, quickly, when the texts share nothing", () => {
    const after = before.map((line) => `${line}!`);
    const { removed, added, ms } = counted(before, after);
    expect({ removed, added }).toEqual({ removed: 10_540, added: 10_540 });
    expect(ms).toBeLessThan(4_000);
  });

  it("orders lines as the texts have them", () => {
    expect(lineDiff(lines("a\nb\nc\n"), lines("a\nB\nc\nd\n"))).toEqual([
      { kind: " ", text: "a" },
      { kind: "-", text: "b" },
      { kind: "+", text: "B" },
      { kind: " ", text: "c" },
      { kind: "+", text: "d" },
    ]);
  });
});
