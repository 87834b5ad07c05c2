import { describe, expect, it } from "vitest";

import { parseCheckRoute } from "@/lib/check/routes/check-route";
import { parseRoutePattern, patternShapeKey } from "@/lib/check/routes/route-pattern";

describe("parseRoutePattern", () => {
  it("splits method and segments", () => {
    const parsed = parseRoutePattern("GET /v1/items/:id/*");
    expect(parsed).toEqual({
      ok: true,
      pattern: {
        text: "GET /v1/items/:id/*",
        method: "GET",
        segments: [
          { kind: "literal", value: "v1" },
          { kind: "literal", value: "items" },
          { kind: "param", name: "id" },
          { kind: "rest" },
        ],
      },
    });
  });

  it("reads a segment ending in * as a prefix segment", () => {
    const parsed = parseRoutePattern("* /action/read*/:id");
    expect(parsed.ok && parsed.pattern.segments).toEqual([
      { kind: "literal", value: "action" },
      { kind: "prefix", value: "read" },
      { kind: "param", name: "id" },
    ]);
  });

  it.each(["* /", "GET /", "OPTIONS /*", "DELETE /v1/a.b-c_d~e", "* /v1/:a/:b", "GET /x*", "* /f/files%2F*"])(
    "accepts %j",
    (text) => {
      expect(parseRoutePattern(text).ok).toBe(true);
    },
  );

  it.each([
    "",
    "GET",
    "get /x",
    "FETCH /x",
    "GET x",
    "GET /x/",
    "GET //x",
    "GET /*/x",
    "GET /x**",
    "GET /a*b",
    "GET /:x*",
    "GET /a b*",
    "GET /:",
    "GET /a b",
    "GET /x?y=1",
  ])("rejects %j with a reason", (text) => {
    const parsed = parseRoutePattern(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toContain(`route pattern "${text}" does not parse: `);
  });

  it("gives patterns that match the same requests the same shape key", () => {
    const shape = (text: string): string => {
      const parsed = parseRoutePattern(text);
      if (!parsed.ok) throw new Error(parsed.message);
      return patternShapeKey(parsed.pattern);
    };
    expect(shape("GET /v1/:id")).toBe(shape("GET /v1/:item"));
    expect(shape("GET /v1/:id")).not.toBe(shape("* /v1/:id"));
    expect(shape("GET /v1/*")).not.toBe(shape("GET /v1/:id"));
    expect(shape("GET /")).toBe("GET /");
    expect(shape("GET /v1/read*")).toBe("GET /v1/read*");
    expect(shape("GET /v1/read*")).not.toBe(shape("GET /v1/*"));
    expect(shape("GET /v1/read*")).not.toBe(shape("GET /v1/read"));
  });
});

describe("parseCheckRoute", () => {
  it("ignores the query string, fragment, trailing and doubled slashes; upper-cases the method", () => {
    expect(parseCheckRoute("get /v1//items/42/?x=1#top")).toEqual({
      method: "GET",
      segments: ["v1", "items", "42"],
    });
    expect(parseCheckRoute("GET /")).toEqual({ method: "GET", segments: [] });
  });

  it("answers null for what is not METHOD /path", () => {
    expect(parseCheckRoute("/v1/items")).toBeNull();
    expect(parseCheckRoute("GET v1")).toBeNull();
    expect(parseCheckRoute("")).toBeNull();
  });
});
