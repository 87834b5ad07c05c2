import { describe, expect, it } from "vitest";
import { isPrivateAddress } from "@/lib/control/alerts/guard/address-policy";
import { signatureHeader, verifySignature } from "@/lib/control/alerts/signature";
import { literalPrivateHost, urlProblem } from "@/lib/control/alerts/guard/url-guard";

// The SSRF policy's address ranges and URL rules, and the signature's round trip.

describe("address policy", () => {
  it.each([
    "127.0.0.1",
    "127.9.9.9",
    "10.0.0.1",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.0.10",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "::1",
    "::",
    "fe80::1",
    "fd00::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:a9fe:a9fe",
    "[::1]",
    "not-an-ip",
  ])("refuses %s", (address) => expect(isPrivateAddress(address)).toBe(true));
  it.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700::1111", "::ffff:8.8.8.8"])(
    "allows %s",
    (address) => expect(isPrivateAddress(address)).toBe(false),
  );
});

describe("url rules", () => {
  it("accepts http and https only, without credentials", () => {
    expect(urlProblem("https://hooks.example.com/x")).toBeNull();
    expect(urlProblem("http://hooks.example.com:8080/x")).toBeNull();
    expect(urlProblem("ftp://example.com/")).toMatch(/http/);
    expect(urlProblem("file:///etc/passwd")).toMatch(/http/);
    expect(urlProblem("https://u:p@example.com/")).toMatch(/user name/);
    expect(urlProblem("example.com")).toMatch(/absolute/);
  });
  it("knows literal private hosts without DNS", () => {
    expect(literalPrivateHost("http://127.0.0.1:3000/")).toBe(true);
    expect(literalPrivateHost("http://[::1]/")).toBe(true);
    expect(literalPrivateHost("http://localhost/")).toBe(true);
    expect(literalPrivateHost("http://a.localhost/")).toBe(true);
    expect(literalPrivateHost("http://0x7f000001/")).toBe(true);
    expect(literalPrivateHost("https://hooks.example.com/")).toBe(false);
  });
});

describe("signature", () => {
  it("verifies its own header and nothing altered", () => {
    const header = signatureHeader("whsec_a", 1_700_000_000, '{"x":1}');
    expect(verifySignature("whsec_a", header, '{"x":1}', 1_700_000_010)).toBe(true);
    expect(verifySignature("whsec_a", header, '{"x":2}', 1_700_000_010)).toBe(false);
    expect(verifySignature("whsec_b", header, '{"x":1}', 1_700_000_010)).toBe(false);
    expect(verifySignature("whsec_a", header, '{"x":1}', 1_700_000_400)).toBe(false);
    expect(verifySignature("whsec_a", "t=1700000000,v1=zz", '{"x":1}', 1_700_000_000)).toBe(false);
  });
});
