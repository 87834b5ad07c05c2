import { BlockList, isIP } from "node:net";

// SLUICE_TRUSTED_PROXIES, parsed: unset or "0" trusts no proxy (the socket's peer is the
// client); a hop count "N" trusts the N nearest hops (the peer and N-1 X-Forwarded-For
// entries); a comma-separated list of addresses/CIDRs trusts the hops inside it.

export type TrustedProxies =
  { kind: "none" } | { kind: "hops"; hops: number } | { kind: "cidrs"; list: BlockList; text: string };

export const NO_PROXIES: TrustedProxies = { kind: "none" };

const MAX_HOPS = 16;

/** "::ffff:10.0.0.1" and "10.0.0.1" are one address; anything not an IP comes back as null. */
export function normalizeAddress(raw: string | undefined): string | null {
  const text = (raw ?? "").trim();
  const bare = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(text)?.[1] ?? text;
  return isIP(bare) === 0 ? null : bare.toLowerCase();
}

function addEntry(list: BlockList, entry: string): string | null {
  const [address, bits, extra] = entry.split("/");
  const ip = normalizeAddress(address);
  if (ip === null || extra !== undefined) return `"${entry}" is not an IP address or CIDR`;
  const type = isIP(ip) === 4 ? "ipv4" : "ipv6";
  if (bits === undefined) {
    list.addAddress(ip, type);
    return null;
  }
  const prefix = Number(bits);
  const max = type === "ipv4" ? 32 : 128;
  if (!/^\d{1,3}$/.test(bits) || prefix > max) return `"${entry}" has a bad prefix length`;
  list.addSubnet(ip, prefix, type);
  return null;
}

/** The setting parsed, or a sentence saying what is wrong with it. */
export function parseTrustedProxies(text: string | undefined): TrustedProxies | string {
  const value = (text ?? "").trim();
  if (value === "" || value === "0") return NO_PROXIES;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops <= MAX_HOPS ? { kind: "hops", hops } : `must be a hop count of at most ${MAX_HOPS}`;
  }
  const list = new BlockList();
  for (const entry of value.split(",").map((e) => e.trim())) {
    const problem = addEntry(list, entry);
    if (problem) return `must be a hop count or a comma-separated list of addresses/CIDRs: ${problem}`;
  }
  return { kind: "cidrs", list, text: value };
}

export function isTrusted(address: string, proxies: TrustedProxies): boolean {
  if (proxies.kind !== "cidrs") return false;
  const ip = normalizeAddress(address);
  return ip !== null && proxies.list.check(ip, isIP(ip) === 4 ? "ipv4" : "ipv6");
}
