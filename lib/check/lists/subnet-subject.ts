import { formatIp, isV4Key, maskKey, parseIp } from "@/lib/check/lists/ip-text";

// Subnet keying (docs/configuration.md, ipSubjects): an IPv6 user commonly holds a whole /64,
// so a limit counted per address would give them 2^64 counters. With it, a subject that is
// an address counts as its network, written "2001:db8:1:2::/64"; any other subject, and an
// address at a full-length prefix, stays as it is.

export interface SubnetPrefixes {
  /** prefix length IPv4 subjects are counted by, 0..32 */
  ipv4: number;
  /** prefix length IPv6 subjects are counted by, 0..128 */
  ipv6: number;
}

export const DEFAULT_SUBNET_PREFIXES: SubnetPrefixes = { ipv4: 32, ipv6: 64 };

/** The subject a tenant with these prefixes counts: the address's network, or the subject. */
export function subnetSubject(subject: string, prefixes: SubnetPrefixes): string {
  const key = parseIp(subject);
  if (key === null) return subject;
  const v4 = isV4Key(key);
  const prefix = v4 ? prefixes.ipv4 : prefixes.ipv6;
  if (prefix >= (v4 ? 32 : 128)) return subject;
  return `${formatIp(maskKey(key, v4 ? 96 + prefix : prefix, 0))}/${prefix}`;
}
