import { BlockList, isIP } from "node:net";
import { ipv6Words, wordsToV4 } from "@/lib/control/alerts/guard/ipv6-words";

// Which addresses a tenant's webhook may not reach: this server's loopback, link-local
// (cloud metadata at 169.254.169.254), private, shared (CGNAT), unspecified, multicast and
// reserved ranges, IPv4 and IPv6. IPv6 forms that carry an IPv4 address (mapped, SIIT,
// NAT64, 6to4) are judged by that IPv4 address, since that is where a packet ends up;
// deprecated or network-chosen embeddings (IPv4-compatible, Teredo, local-use NAT64) are
// refused outright. Pure; url-guard.ts resolves.

const blocked = new BlockList();
const V4: [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];
const V6: [string, number][] = [
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
];
for (const [net, prefix] of V4) blocked.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of V6) blocked.addSubnet(net, prefix, "ipv6");

type Embedding = { refuse: true } | { refuse: false; v4: string } | null;

const zero = (words: number[], from: number, to: number): boolean =>
  words.slice(from, to).every((w) => w === 0);

/** What an IPv6 address says about an IPv4 address inside it; null when it carries none. */
function embedding(w: number[]): Embedding {
  // ::/96: the unspecified address, ::1 and the deprecated IPv4-compatible ::a.b.c.d
  if (zero(w, 0, 6)) return { refuse: true };
  // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (SIIT translated)
  if (zero(w, 0, 5) && w[5] === 0xffff) return { refuse: false, v4: wordsToV4(w[6], w[7]) };
  if (zero(w, 0, 4) && w[4] === 0xffff && w[5] === 0) return { refuse: false, v4: wordsToV4(w[6], w[7]) };
  // 64:ff9b::/96, the well-known NAT64 prefix; 64:ff9b:1::/48 puts it where its network chose
  if (w[0] === 0x64 && w[1] === 0xff9b && zero(w, 2, 6)) return { refuse: false, v4: wordsToV4(w[6], w[7]) };
  if (w[0] === 0x64 && w[1] === 0xff9b && w[2] === 1) return { refuse: true };
  // 2002::/16, 6to4: the relay sends to the IPv4 address in bits 16-47
  if (w[0] === 0x2002) return { refuse: false, v4: wordsToV4(w[1], w[2]) };
  // 2001::/32, Teredo (deprecated tunnelling): its server and client addresses are IPv4
  if (w[0] === 0x2001 && w[1] === 0) return { refuse: true };
  return null;
}

/** Whether a literal IP address is one a tenant may not reach. Not an IP: true (refuse). */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "").split("%")[0] ?? "";
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, "ipv4");
  if (family !== 6) return true;
  const inside = embedding(ipv6Words(bare));
  if (inside) return inside.refuse || blocked.check(inside.v4, "ipv4");
  return blocked.check(bare, "ipv6");
}
