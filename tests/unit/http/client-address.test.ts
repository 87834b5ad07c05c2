// Client addresses that cannot be forged: the login limits took the last X-Forwarded-For entry, which the
// client writes when no proxy is in front, and the admin API's same-origin check believed
// X-Forwarded-Host. Now the socket decides unless SLUICE_TRUSTED_PROXIES says otherwise.
import { describe, expect, it } from "vitest";
import { clientAddress, peerMayForward } from "@/lib/shared/http/client-address";
import { sameOrigin } from "@/lib/shared/http/same-origin";
import { NO_PROXIES, parseTrustedProxies, type TrustedProxies } from "@/lib/shared/http/trusted-proxies";

function proxies(text: string): TrustedProxies {
  const parsed = parseTrustedProxies(text);
  if (typeof parsed === "string") throw new Error(parsed);
  return parsed;
}

describe("the client address", () => {
  it("is the socket's peer by default, whatever X-Forwarded-For says", () => {
    expect(clientAddress("::ffff:10.0.0.9", "1.1.1.1, 2.2.2.2", NO_PROXIES)).toBe("10.0.0.9");
    const seen = new Set(
      Array.from({ length: 34 }, (_, i) => clientAddress("203.0.113.5", `198.51.100.${i}`, NO_PROXIES)),
    );
    expect([...seen]).toEqual(["203.0.113.5"]);
  });

  it("with a hop count, is the entry that many hops left of the peer", () => {
    expect(clientAddress("10.0.0.1", "6.6.6.6, 1.2.3.4", proxies("1"))).toBe("1.2.3.4");
    expect(clientAddress("10.0.0.1", "6.6.6.6, 1.2.3.4, 10.0.0.2", proxies("2"))).toBe("1.2.3.4");
    // Fewer entries than hops: the left-most there is.
    expect(clientAddress("10.0.0.1", undefined, proxies("2"))).toBe("10.0.0.1");
    expect(clientAddress("10.0.0.1", "1.2.3.4", proxies("0"))).toBe("10.0.0.1");
  });

  it("with CIDRs, is the right-most hop outside them; forged entries further left do not matter", () => {
    const trusted = proxies("10.0.0.0/8, 192.168.1.1, fd00::/8");
    expect(clientAddress("10.1.2.3", "6.6.6.6, 1.2.3.4, 10.9.9.9", trusted)).toBe("1.2.3.4");
    expect(clientAddress("::ffff:10.1.2.3", "1.2.3.4", trusted)).toBe("1.2.3.4");
    expect(clientAddress("fd00::1", "2001:db8::7", trusted)).toBe("2001:db8::7");
    // A peer outside the list is the client itself, whatever it forwards.
    expect(clientAddress("1.2.3.4", "10.0.0.1", trusted)).toBe("1.2.3.4");
  });

  it("refuses a bad setting with a sentence", () => {
    expect(parseTrustedProxies("10.0.0.0/33")).toMatch(/prefix/);
    expect(parseTrustedProxies("proxy.local")).toMatch(/not an IP/);
    expect(parseTrustedProxies("99")).toMatch(/hop count/);
  });

  it("lets a peer forward X-Forwarded-Host only when it is a trusted proxy", () => {
    expect(peerMayForward("1.2.3.4", NO_PROXIES)).toBe(false);
    expect(peerMayForward("1.2.3.4", proxies("1"))).toBe(true);
    expect(peerMayForward("10.0.0.5", proxies("10.0.0.0/8"))).toBe(true);
    expect(peerMayForward("1.2.3.4", proxies("10.0.0.0/8"))).toBe(false);
  });
});

describe("the admin API's same-origin check", () => {
  const request = (headers: Record<string, string>) =>
    new Request("http://app.example/api/admin/config", { method: "PUT", headers });

  it("does not trust X-Forwarded-Host unless proxies are trusted", () => {
    const forged = request({
      host: "app.example",
      origin: "https://evil.example",
      "x-forwarded-host": "evil.example",
    });
    expect(sameOrigin(forged, false)).toBe(false);
    expect(sameOrigin(forged, true)).toBe(true);
    expect(sameOrigin(request({ host: "app.example", origin: "http://app.example" }), false)).toBe(true);
  });
});
