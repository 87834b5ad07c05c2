import { describe, expect, it } from "vitest";
import { formatIp, maskKey, parseIp } from "@/lib/check/lists/ip-text";
import { readEntry } from "@/lib/check/lists/list-entry";
import { subnetSubject } from "@/lib/check/lists/subnet-subject";

// Address parsing of the allow and deny lists: IPv4, IPv6 in its spellings, IPv4-mapped
// IPv6 meeting IPv4, prefixes at their edges, and what is refused.

describe("parseIp", () => {
  it("reads IPv4 into the mapped IPv6 space", () => {
    expect(parseIp("192.0.2.1")).toBe("00000000000000000000ffffc0000201");
    expect(parseIp("0.0.0.0")).toBe("00000000000000000000ffff00000000");
    expect(parseIp("255.255.255.255")).toBe("00000000000000000000ffffffffffff");
  });

  it("reads an IPv4-mapped IPv6 address as the IPv4 one", () => {
    expect(parseIp("::ffff:192.0.2.1")).toBe(parseIp("192.0.2.1"));
    expect(parseIp("::FFFF:c000:0201")).toBe(parseIp("192.0.2.1"));
  });

  it("reads every spelling of one IPv6 address the same", () => {
    const key = parseIp("2001:db8::1");
    expect(key).toBe("20010db8000000000000000000000001");
    expect(parseIp("2001:0DB8:0000:0000:0000:0000:0000:0001")).toBe(key);
    expect(parseIp("2001:db8:0:0::1")).toBe(key);
    expect(parseIp("::")).toBe("0".repeat(32));
    expect(parseIp("::1")).toBe(`${"0".repeat(31)}1`);
    expect(parseIp("1::")).toBe(`0001${"0".repeat(28)}`);
  });

  it.each([
    "1.2.3",
    "1.2.3.4.5",
    "256.1.1.1",
    "01.2.3.4",
    "1..2.3",
    "1.2.3.4 ",
    "a.b.c.d",
    "1:2:3:4:5:6:7",
    "1:2:3:4:5:6:7:8:9",
    "1::2::3",
    "12345::",
    "g::1",
    "::1.2.3",
    "fe80::1%eth0",
    "",
    ":",
  ])("refuses %j", (text) => {
    expect(parseIp(text)).toBeNull();
  });

  it("formats as RFC 5952 and dotted IPv4", () => {
    expect(formatIp(parseIp("2001:0db8:0:0:1:0:0:1") as string)).toBe("2001:db8::1:0:0:1");
    expect(formatIp(parseIp("::") as string)).toBe("::");
    expect(formatIp(parseIp("2001:db8:1:2:3:4:5:6") as string)).toBe("2001:db8:1:2:3:4:5:6");
    expect(formatIp(parseIp("10.1.2.3") as string)).toBe("10.1.2.3");
  });

  it("masks at nibble and non-nibble boundaries", () => {
    const key = parseIp("2001:db8:ffff::1") as string;
    expect(formatIp(maskKey(key, 32, 0))).toBe("2001:db8::");
    expect(formatIp(maskKey(key, 35, 0))).toBe("2001:db8:e000::");
    expect(maskKey(key, 0, 1)).toBe("f".repeat(32));
    expect(maskKey(key, 128, 0)).toBe(key);
  });
});

describe("readEntry", () => {
  it("tells addresses, ranges and subjects apart", () => {
    expect(readEntry("203.0.113.7")).toMatchObject({ ok: true, entry: { kind: "ip" } });
    expect(readEntry("203.0.113.0/24")).toMatchObject({ ok: true, entry: { kind: "range", bits: 120 } });
    expect(readEntry("2001:db8::/32")).toMatchObject({ ok: true, entry: { kind: "range", bits: 32 } });
    expect(readEntry("user-42")).toEqual({ ok: true, entry: { kind: "subject", text: "user-42" } });
    expect(readEntry("cafe")).toEqual({ ok: true, entry: { kind: "subject", text: "cafe" } });
  });

  it("takes the edge prefixes: /0, /32 and /128 as a single address", () => {
    expect(readEntry("0.0.0.0/0")).toMatchObject({ ok: true, entry: { kind: "range", bits: 96 } });
    expect(readEntry("::/0")).toMatchObject({ ok: true, entry: { kind: "range", bits: 0 } });
    expect(readEntry("192.0.2.1/32")).toEqual({ ok: true, entry: { kind: "ip", key: parseIp("192.0.2.1") } });
    expect(readEntry("2001:db8::1/128")).toEqual({
      ok: true,
      entry: { kind: "ip", key: parseIp("2001:db8::1") },
    });
  });

  it.each([
    ["10.0.0.0/33", "must be 0 to 32 for IPv4"],
    ["2001:db8::/129", "must be 0 to 128 for IPv6"],
    ["10.0.0.1/8", "did you mean 10.0.0.0/8?"],
    ["2001:db8::1/32", "did you mean 2001:db8::/32?"],
    ["10.0.0.256", "is not an IPv4 address"],
    ["10.0.0.0/", "must be 0 to 32"],
    ["10.0.0.0/08", "must be 0 to 32"],
    ["1::2::3", "is not an IPv6 address"],
    ["bad subject", "no whitespace"],
    ["", "must be 1..256 characters"],
  ])("refuses %j: %s", (text, message) => {
    const read = readEntry(text);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.message).toContain(message);
  });
});

describe("subnetSubject", () => {
  it("keys IPv6 by /64 and leaves IPv4 and other subjects alone by default", () => {
    const prefixes = { ipv4: 32, ipv6: 64 };
    expect(subnetSubject("2001:db8:1:2:aaaa::1", prefixes)).toBe("2001:db8:1:2::/64");
    expect(subnetSubject("2001:db8:1:2:bbbb::9", prefixes)).toBe("2001:db8:1:2::/64");
    expect(subnetSubject("192.0.2.7", prefixes)).toBe("192.0.2.7");
    expect(subnetSubject("user-1", prefixes)).toBe("user-1");
  });

  it("keys IPv4 by a prefix when set, and IPv6 by any length", () => {
    expect(subnetSubject("192.0.2.7", { ipv4: 24, ipv6: 128 })).toBe("192.0.2.0/24");
    expect(subnetSubject("2001:db8::1", { ipv4: 32, ipv6: 128 })).toBe("2001:db8::1");
    expect(subnetSubject("2001:db8::1", { ipv4: 32, ipv6: 0 })).toBe("::/0");
  });
});
