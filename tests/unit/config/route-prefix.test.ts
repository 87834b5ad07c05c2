// Prefix segments ("read*") in the matcher: one segment starting with the prefix, ranked
// between a literal and a parameter, the longer prefix first (docs/configuration.md).

import { describe, expect, it } from "vitest";

import { createRouteMatcher } from "@/lib/check/routes/route-matcher";
import { validateDocument } from "@/lib/control/config/document";

const matcher = createRouteMatcher(
  [
    "* /action/read",
    "* /action/read*",
    "* /action/readme*",
    "* /action/:action",
    "* /action/*",
    "GET /action/re*",
    "* /files/files%2F*",
    "* /user/:user/action/read*",
    "* /user/u1*/action/:action",
  ],
  ["* /t/ab*/x", "* /t/a*/y"],
);

describe("prefix segments", () => {
  it.each([
    ["POST /action/read", "* /action/read", "a literal beats a prefix"],
    ["POST /action/readers", "* /action/read*", "the prefix matches a longer segment"],
    ["POST /action/readme.md", "* /action/readme*", "the longer prefix beats the shorter one"],
    ["POST /action/readme", "* /action/readme*", "a prefix matches the segment equal to it"],
    ["POST /action/write", "* /action/:action", "a parameter takes what no prefix matches"],
    ["GET /action/rea", "GET /action/re*", "a method-bound prefix"],
    ["POST /action/rea", "* /action/:action", "the GET prefix does not take POST"],
    ["POST /action/readers/more", "* /action/*", "a prefix is one segment only"],
    ["POST /files/files%2Fa.txt", "* /files/files%2F*", "the prefix compares the encoded segment"],
    ["POST /user/u2/action/reading", "* /user/:user/action/read*", "a prefix below a parameter"],
    ["POST /user/u17/action/reading", "* /user/u1*/action/:action", "a prefix earlier in the path wins"],
    ["POST /t/abc/y", "* /t/a*/y", "backtracks from the longer prefix when its branch dead-ends"],
    ["POST /t/abc/x", "* /t/ab*/x", "the longer prefix when both branches complete"],
    ["POST /action/read?x=1", "* /action/read", "the query string stays out of the segment"],
    ["POST /action/readers/", "* /action/read*", "a trailing slash stays out of the segment"],
  ])("%s -> %s (%s)", (route, expected) => {
    expect(matcher.match(route)).toBe(expected);
  });

  it("matches nothing where only prefixes are declared and none fits", () => {
    const only = createRouteMatcher(["* /k/foo*"]);
    expect(only.match("POST /k/foo")).toBe("* /k/foo*");
    expect(only.match("POST /k/fo")).toBeNull();
    expect(only.match("POST /k/xfoo")).toBeNull();
    expect(only.match("POST /k")).toBeNull();
    expect(matcher.match("POST /files/other")).toBeNull();
  });

  it("keeps a tenant's prefix above a global one of the same shape", () => {
    const both = createRouteMatcher(["* /k/foo*"], ["* /k/foo*"]);
    expect(both.match("POST /k/food")).toBe("* /k/foo*");
  });
});

describe("prefix segments in a document", () => {
  const doc = (patterns: string[]) => ({ routes: patterns.map((pattern) => ({ pattern, limits: [] })) });

  it("accepts prefixes beside the literal, parameter and rest of the same place", () => {
    const result = validateDocument(doc(["* /k/foo*", "* /k/fo*", "* /k/foo", "* /k/:k", "* /k/*"]));
    expect(result.ok, JSON.stringify(result)).toBe(true);
  });

  it("names the field of a wildcard inside a segment, and of a prefix declared twice", () => {
    const inside = validateDocument(doc(["* /k/a*b"]));
    expect(inside.ok).toBe(false);
    if (!inside.ok) expect(inside.errors[0]).toMatchObject({ path: "routes[0].pattern" });
    const twice = validateDocument(doc(["* /k/foo*", "* /k/foo*"]));
    expect(twice.ok).toBe(false);
    if (!twice.ok) expect(twice.errors[0]!.message).toContain('duplicate route pattern "* /k/foo*"');
  });
});
