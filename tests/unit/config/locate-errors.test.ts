import { describe, expect, it } from "vitest";
import {
  locateErrors,
  parseDocumentText,
  parseText,
  type SourcePositions,
} from "@/lib/control/config/document";

const text = [
  "tenants:",
  "  - slug: acme",
  "    plan: free",
  "    limits:",
  "      - { name: a, limit: -1 }",
  "",
].join("\n");

function positionsOf(source: string, format: "yaml" | "json"): SourcePositions {
  const parsed = parseText(source, format);
  if (!parsed.ok) throw new Error("the text does not parse");
  return parsed.positions;
}

describe("document errors located from the one parse", () => {
  it("puts a path's error at its node, and a missing field at the nearest enclosing node", () => {
    const [value, missing, whole] = locateErrors(
      [
        { path: "tenants[0].limits[0].limit", message: "must be positive" },
        { path: "tenants[0].limits[0].window", message: "is required" },
        { path: "", message: "no position" },
      ],
      positionsOf(text, "yaml"),
    );
    expect(value).toMatchObject({ line: 5, column: 27 });
    expect(missing).toMatchObject({ line: 5, column: 9 });
    expect(whole?.line).toBeUndefined();
  });

  it("gives syntax errors their line and column", () => {
    const parsed = parseDocumentText("tenants:\n  - slug: a\n   plan: [\n", "yaml");
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors[0]?.line).toBeGreaterThanOrEqual(3);
    expect(parsed.errors[0]?.column).toBeGreaterThanOrEqual(1);
  });

  it("locates errors in JSON text too, keys with escapes included", () => {
    const json =
      '{\n  "tenants": [\n    { "slug": "acme", "pl\\u0061n": 5,\n "limits": [1, {"a": [2]}] }\n  ]\n}';
    const positions = positionsOf(json, "json");
    expect(locateErrors([{ path: "tenants[0].plan", message: "must be text" }], positions)[0]).toMatchObject({
      line: 3,
      column: 36,
    });
    expect(locateErrors([{ path: "tenants[0].limits[1].a[0]", message: "x" }], positions)[0]).toMatchObject({
      line: 4,
      column: 23,
    });
  });
});
