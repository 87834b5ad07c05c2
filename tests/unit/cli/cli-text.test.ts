// The CLI's text helpers: server paths found at their line and column in the file, the
// unified diff's hunks, and the export narrowed to what a file can change.
import { describe, expect, it } from "vitest";
import { exportScopedTo } from "@/packages/client/src/cli/export-scope";
import { unifiedDiff } from "@/packages/client/src/cli/line-diff";
import { parsePath, YamlLocator } from "@/packages/client/src/cli/yaml-locate";

const FILE = `tenants:
  - slug: acme
    plan: free
    routes:
      - pattern: "GET /a"
        limits:
          - { name: a, by: key, limit: -1, window: 1s }
`;

describe("YamlLocator", () => {
  it("parses the server's path spelling", () => {
    expect(parsePath("tenants[0].routes[3].limits[0].limit")).toEqual([
      "tenants",
      0,
      "routes",
      3,
      "limits",
      0,
      "limit",
    ]);
    expect(parsePath("")).toEqual([]);
  });

  it("finds a value's line and column, or the nearest existing ancestor", () => {
    const locator = new YamlLocator(FILE);
    expect(locator.locate("tenants[0].routes[0].limits[0].limit")).toEqual({ line: 7, col: 40 });
    expect(locator.locate("tenants[0].plan")).toEqual({ line: 3, col: 11 });
    // no `algorithm` field: the limit itself
    expect(locator.locate("tenants[0].routes[0].limits[0].algorithm")).toEqual({ line: 7, col: 13 });
    // no sixth tenant: the tenants list
    expect(locator.locate("tenants[5].slug")).toEqual({ line: 2, col: 3 });
    expect(locator.locate("")).toBeNull();
  });

  it("works on JSON files too", () => {
    const locator = new YamlLocator('{\n  "tenants": [\n    { "slug": "acme", "plan": 7 }\n  ]\n}\n');
    expect(locator.locate("tenants[0].plan")).toEqual({ line: 3, col: 31 });
  });

  it("reports syntax errors with positions", () => {
    const errors = new YamlLocator("tenants:\n  - slug: [\n").syntaxErrors();
    expect(errors[0]?.position).toEqual({ line: 3, col: 1 });
  });
});

describe("unifiedDiff", () => {
  it("is empty for the same lines and shows hunks with context otherwise", () => {
    const before = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"].join("\n");
    expect(unifiedDiff(before, `${before}\n`, "x", "y")).toBe("");
    const after = before.replace("e", "E");
    expect(unifiedDiff(before, after, "server", "f.yaml")).toBe(
      "--- server\n+++ f.yaml\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n",
    );
  });

  it("shows one changed line of a 20,000-line document as one hunk, not the whole document", () => {
    const before = Array.from({ length: 20_000 }, (_, i) => `line ${i}`);
    const after = before.map((line, i) => (i === 12_345 ? "changed" : line));
    expect(unifiedDiff(before.join("\n"), after.join("\n"), "server", "f.yaml")).toBe(
      "--- server\n+++ f.yaml\n@@ -12343,7 +12343,7 @@\n" +
        " line 12342\n line 12343\n line 12344\n-line 12345\n+changed\n line 12346\n line 12347\n line 12348\n",
    );
    // a line added at the end, and the same texts: the trimmed middle handles both edges
    expect(unifiedDiff("a\nb", "a\nb\nc", "x", "y")).toBe("--- x\n+++ y\n@@ -1,2 +1,3 @@\n a\n b\n+c\n");
    expect(unifiedDiff("a\na\na", "a\na", "x", "y")).toBe("--- x\n+++ y\n@@ -1,3 +1,2 @@\n a\n a\n-a\n");
  });
});

describe("exportScopedTo", () => {
  const exported = `plans:
  - name: free
    limits: []
tenants:
  - slug: acme
    name: Acme
    plan: free
    status: active
    limits: []
    routes: []
    keys: []
  - slug: other
    name: Other
    plan: free
    status: active
`;

  it("keeps only the tenants a file lists, without defaults it leaves out", () => {
    const file = { tenants: [{ slug: "acme", name: "Acme", plan: "free", limits: [] }] };
    expect(exportScopedTo(exported, file, false)).toBe(
      "tenants:\n  - slug: acme\n    name: Acme\n    plan: free\n    limits: []\n",
    );
  });

  it("keeps every tenant with --prune (the others would be deleted) and sections the file lists", () => {
    const scoped = exportScopedTo(exported, { plans: [], tenants: [] }, true);
    expect(scoped).toContain("plans:");
    expect(scoped).toContain("slug: other");
  });
});
