import { describe, expect, it } from "vitest";
import { bearerToken } from "@/lib/control/data/auth/api-tokens";
import { requestIdOf } from "@/lib/control/api/with-admin";

describe("bearerToken", () => {
  it.each([
    ["Bearer at_abc", "at_abc"],
    ["bearer at_abc", "at_abc"],
    ["Bearer   at_abc  ", "at_abc"],
    ["Basic YTpi", null],
    ["Bearer", null],
    ["Bearer a b", null],
    [null, null],
  ])("%s -> %s", (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });
});

describe("requestIdOf", () => {
  it("keeps a sane caller id and replaces anything else", () => {
    const given = new Request("http://x/", { headers: { "x-request-id": "trace-42" } });
    expect(requestIdOf(given)).toBe("trace-42");
    const hostile = new Request("http://x/", { headers: { "x-request-id": "a b\u0001<script>" } });
    expect(requestIdOf(hostile)).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf(new Request("http://x/"))).toMatch(/^[0-9a-f-]{36}$/);
  });
});
