import { describe, expect, it } from "vitest";
import { isPrivateAddress } from "@/lib/control/alerts/guard/address-policy";
import { ipv6Words } from "@/lib/control/alerts/guard/ipv6-words";
import { literalPrivateHost } from "@/lib/control/alerts/guard/url-guard";

// IPv6 addresses that carry an IPv4 address: judged by the IPv4 address they lead to, or
// refused outright when the form is deprecated or its embedding is the network's choice.

describe("IPv6 forms embedding IPv4", () => {
  it.each([
    ["IPv4-compatible loopback", "::127.0.0.1"],
    ["IPv4-compatible, hex", "::7f00:1"],
    ["IPv4-compatible, public (deprecated form)", "::8.8.8.8"],
    ["unspecified", "::"],
    ["loopback", "::1"],
    ["mapped loopback", "::ffff:127.0.0.1"],
    ["mapped metadata, hex", "::ffff:a9fe:a9fe"],
    ["mapped, written in full", "0:0:0:0:0:ffff:7f00:0001"],
    ["SIIT translated private", "::ffff:0:10.0.0.1"],
    ["NAT64 loopback", "64:ff9b::127.0.0.1"],
    ["NAT64 metadata, hex", "64:ff9b::a9fe:a9fe"],
    ["local-use NAT64", "64:ff9b:1::808:808"],
    ["6to4 of loopback", "2002:7f00:1::"],
    ["6to4 of a private network", "2002:c0a8:0101::1"],
    ["Teredo", "2001:0:4136:e378:8000:63bf:3fff:fdd2"],
    ["Teredo, any", "2001::1"],
  ])("refuses %s (%s)", (_form, address) => expect(isPrivateAddress(address)).toBe(true));

  it.each([
    ["mapped public", "::ffff:8.8.8.8"],
    ["NAT64 of a public address", "64:ff9b::808:808"],
    ["6to4 of a public address", "2002:808:808::1"],
    ["plain global", "2606:4700::1111"],
    ["global with ::ffff inside, not a mapping", "2606:ffff::7f00:1"],
  ])("allows %s (%s)", (_form, address) => expect(isPrivateAddress(address)).toBe(false));

  it("refuses the probe's URL http://[::127.0.0.1] without DNS", () => {
    expect(new URL("http://[::127.0.0.1]/").hostname).toBe("[::7f00:1]");
    expect(literalPrivateHost("http://[::127.0.0.1]/")).toBe(true);
    expect(literalPrivateHost("http://[64:ff9b::7f00:1]/")).toBe(true);
    expect(literalPrivateHost("http://[2002:7f00:1::]/")).toBe(true);
  });
});

describe("ipv6Words", () => {
  it.each([
    ["::", [0, 0, 0, 0, 0, 0, 0, 0]],
    ["::1", [0, 0, 0, 0, 0, 0, 0, 1]],
    ["1::", [1, 0, 0, 0, 0, 0, 0, 0]],
    ["::ffff:1.2.3.4", [0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]],
    ["2001:DB8::8:800:200C:417A", [0x2001, 0xdb8, 0, 0, 8, 0x800, 0x200c, 0x417a]],
    ["1:2:3:4:5:6:7:8", [1, 2, 3, 4, 5, 6, 7, 8]],
  ])("reads %s", (address, words) => expect(ipv6Words(address)).toEqual(words));
});
