// Structural bounds checked before a document is parsed (so a body cannot stall the server): a hostile
// nesting or a huge flat list is refused quickly with a sentence naming the bound, and
// ordinary documents, including a 5,000-route import, pass.
import { describe, expect, it } from "vitest";
import {
  MAX_DOCUMENT_DEPTH,
  MAX_DOCUMENT_VALUES,
  parseDocumentText,
  structureProblem,
} from "@/lib/control/config/document";

// The bounds are on CPU time, not wall time: on a loaded machine a scan waits for a core
// (a 0.5 s scan took 3.56 s of wall time), which says nothing about the work it does.
// Vitest runs each test file in a process of its own, so the process's CPU is this scan's.
function timed<T>(work: () => T): { value: T; ms: number } {
  const started = process.cpuUsage();
  const value = work();
  const { user, system } = process.cpuUsage(started);
  return { value, ms: (user + system) / 1000 };
}

describe("document structure bounds", () => {
  it("refuses a million nested [ in YAML fast, naming the depth", () => {
    const hostile = "[".repeat(1_000_000);
    const { value, ms } = timed(() => parseDocumentText(hostile, "yaml"));
    expect(value.ok).toBe(false);
    if (!value.ok) expect(value.errors[0]?.message).toMatch(/nests deeper than 32 levels/);
    expect(ms).toBeLessThan(500);
  });

  it("refuses deep nesting in JSON, block sequences and flow maps", () => {
    const deep = MAX_DOCUMENT_DEPTH + 1;
    expect(structureProblem("[".repeat(deep) + "]".repeat(deep), "json")).toMatch(/nests deeper/);
    expect(structureProblem('{"a":'.repeat(deep) + "1" + "}".repeat(deep), "json")).toMatch(/nests deeper/);
    expect(structureProblem("- ".repeat(deep) + "x\n", "yaml")).toMatch(/nests deeper/);
    expect(structureProblem("a: " + "{b: ".repeat(deep) + "1" + "}".repeat(deep), "yaml")).toMatch(
      /nests deeper/,
    );
    expect(structureProblem("a:\n" + " ".repeat(200) + "b: 1\n", "yaml")).toMatch(/indented more than/);
  });

  it("does not count brackets inside strings, comments or block scalars", () => {
    const brackets = "[".repeat(100);
    expect(structureProblem(JSON.stringify({ a: brackets }), "json")).toBeNull();
    expect(
      structureProblem(`a: "${brackets}"\nb: '${brackets}' # ${brackets}\nc: |\n  ${brackets}\n`, "yaml"),
    ).toBeNull();
  });

  it("refuses a flat list of a million items (5 s to parse) without parsing it", () => {
    const flat = "[" + "1,".repeat(1_000_000) + "1]";
    const { value, ms } = timed(() => structureProblem(flat, "yaml"));
    expect(value).toMatch(/more than 660000 values/);
    expect(ms).toBeLessThan(3_000);
  });

  it("counts JSON values too: a 2 MB array of 1,040,001 numbers is refused in a character scan", () => {
    const numbers = "[" + Array.from({ length: 1_040_001 }, (_, i) => String(i % 10)).join(",") + "]";
    const { value, ms } = timed(() => structureProblem(numbers, "json"));
    expect(value).toBe(
      "line 1: the document has more than 660000 values (scalars, keys and collections); split it",
    );
    expect(ms).toBeLessThan(1_000);
    // keys, strings, literals and collections each count once; the bound is exact
    const items = (n: number): string => JSON.stringify({ a: Array.from({ length: n }, () => [true, "x"]) });
    const fits = (MAX_DOCUMENT_VALUES - 3) / 3; // the map, "a", the array; then 3 per item
    expect(structureProblem(items(fits), "json")).toBeNull();
    expect(structureProblem(items(fits + 1), "json")).toMatch(/more than 660000 values/);
  });

  it("accepts nesting at the bound and a 5,000-route tenant", () => {
    const depth = MAX_DOCUMENT_DEPTH;
    expect(structureProblem("[".repeat(depth) + "]".repeat(depth), "yaml")).toBeNull();
    expect(structureProblem("[".repeat(depth) + "]".repeat(depth), "json")).toBeNull();
    const routes = Array.from(
      { length: 5000 },
      (_, i) =>
        `      - pattern: GET /r${i}/:id\n        limits: [{ name: r${i}, by: key, algorithm: gcra, limit: 10, window: 1s }]\n`,
    ).join("");
    const doc = `tenants:\n  - slug: big\n    name: Big\n    plan: free\n    routes:\n${routes}`;
    expect(structureProblem(doc, "yaml")).toBeNull();
    expect(parseDocumentText(doc, "yaml").ok).toBe(true);
    // parsing 5,000 routes takes ~1 s quiet and several on a loaded machine: it is not timed
  }, 60_000);
});
