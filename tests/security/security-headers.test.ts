import { beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";

// proxy.ts's security headers, in process: HSTS only when NEXTAUTH_URL is https, the CSP
// on pages only (with the nonce handed to Next on the request), nosniff everywhere, and
// no-store on the admin API. (tests/e2e/security-headers.spec.ts checks them in Chromium.)

let proxy: (request: NextRequest) => Response;

beforeAll(async () => {
  process.env.NEXTAUTH_URL = "https://sluice.example";
  ({ proxy } = await import("@/proxy"));
});

describe("proxy.ts", () => {
  it("a page over https: CSP with a fresh nonce, no framing, nosniff, HSTS", () => {
    const first = proxy(new NextRequest("https://sluice.example/tenants"));
    const second = proxy(new NextRequest("https://sluice.example/tenants"));
    const csp = first.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toBe(second.headers.get("content-security-policy"));
    expect(first.headers.get("strict-transport-security")).toMatch(/^max-age=\d{7,}/);
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    // Next reads the nonce from the request's policy: it is forwarded as a request header
    expect(first.headers.get("x-middleware-request-content-security-policy")).toBe(csp);
  });

  it("the admin API: no CSP (not a document), nosniff, no-store, HSTS", () => {
    const response = proxy(new NextRequest("https://sluice.example/api/admin/config"));
    expect(response.headers.get("content-security-policy")).toBeNull();
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("strict-transport-security")).not.toBeNull();
  });
});
