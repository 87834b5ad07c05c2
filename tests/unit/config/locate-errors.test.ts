import { describe, expect, it } from "vitest";
import { locateErrors, parseDocumentText } from "@/lib/config/document";

const text = [
  "tenants:",
  "  - slug: acme",
  "    plan: free",
  "    limits:",
  "      - { name: a, limit: -1 }",
  "",
].join("\n");

describe("document errors located", () => {
  it("puts a path's error at its node, and a missing field at the nearest enclosing node", () => {
    const [value, missing, whole] = locateErrors(text, [
      { path: "tenants[0].limits[0].limit", message: "must be positive" },
      { path: "tenants[0].limits[0].window", message: "is required" },
      { path: "", message: "no position" },
    ]);
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

  it("locates errors in JSON text too", () => {
    const json = '{\n  "tenants": [\n    { "slug": "acme", "plan": 5 }\n  ]\n}';
    expect(locateErrors(json, [{ path: "tenants[0].plan", message: "must be text" }])[0]).toMatchObject({
      line: 3,
    });
  });
});
