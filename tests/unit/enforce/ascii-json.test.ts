import { describe, expect, it } from "vitest";
import { asciiJson } from "@/lib/shared/ascii-json";

describe("asciiJson", () => {
  it("writes JSON with only ASCII characters that parses back to the same value", () => {
    const value = { route: "GET /café/ü", emoji: "😀", del: "\u007f", plain: "a-b_c", n: [1, null, true] };
    const text = asciiJson(value);
    expect(text).toMatch(/^[\x20-\x7e]*$/);
    expect(JSON.parse(text)).toEqual(value);
    expect(asciiJson({ a: "plain" })).toBe('{"a":"plain"}');
  });
});
