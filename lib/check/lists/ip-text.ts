// IP addresses and CIDR ranges as allow and deny lists (docs/configuration.md) and subnet
// keying read them. Every address is held as one 32-character hex text of its 128 bits, an
// IPv4 address as its IPv4-mapped IPv6 form (::ffff:a.b.c.d): texts of equal length compare
// as the numbers do, so ranges are two texts and a lookup is string comparisons, and a
// mapped address meets the IPv4 entries without a second lookup.

/** 32 lowercase hex digits: the address's 128 bits, IPv4 mapped into ::ffff:0:0/96. */
export type IpKey = string;

const V4_PREFIX = "00000000000000000000ffff";
const HEX = "0123456789abcdef";

/** The 8 hex digits of a dotted IPv4 address, or null (leading zeros refused: octal or not?). */
function v4Hex(text: string): string | null {
  let hex = "";
  let parts = 0;
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 46;
    if (code === 46) {
      if (digits === 0 || value > 255 || ++parts > 4) return null;
      hex += HEX.charAt(value >> 4) + HEX.charAt(value & 15);
      value = 0;
      digits = 0;
    } else if (code >= 48 && code <= 57) {
      if (digits === 1 && value === 0) return null;
      value = value * 10 + code - 48;
      if (++digits > 3) return null;
    } else return null;
  }
  return parts === 4 ? hex : null;
}

function groupHex(group: string): string | null {
  if (group.length === 0 || group.length > 4) return null;
  for (let i = 0; i < group.length; i++) {
    const code = group.charCodeAt(i) | 32;
    if (!((code >= 48 && code <= 57) || (code >= 97 && code <= 102))) return null;
  }
  return group.toLowerCase().padStart(4, "0");
}

function groupsHex(groups: readonly string[]): string | null {
  let hex = "";
  for (let i = 0; i < groups.length; i++) {
    const group = groups[i] as string;
    // an IPv4 tail (::ffff:1.2.3.4) stands for the last two groups
    const part = i === groups.length - 1 && group.includes(".") ? v4Hex(group) : groupHex(group);
    if (part === null) return null;
    hex += part;
  }
  return hex;
}

function v6Hex(text: string): string | null {
  const gap = text.indexOf("::");
  if (gap !== text.lastIndexOf("::")) return null;
  if (gap === -1) {
    const hex = groupsHex(text.split(":"));
    return hex !== null && hex.length === 32 ? hex : null;
  }
  const head = text.slice(0, gap);
  const tail = text.slice(gap + 2);
  const left = head === "" ? "" : groupsHex(head.split(":"));
  const right = tail === "" ? "" : groupsHex(tail.split(":"));
  // "::" stands for one or more zero groups
  if (left === null || right === null || left.length + right.length > 28) return null;
  return left + "0".repeat(32 - left.length - right.length) + right;
}

/** The key of an IPv4 or IPv6 address in its usual text, or null when it is not one. */
export function parseIp(text: string): IpKey | null {
  if (text.length < 2 || text.length > 45) return null;
  if (text.includes(":")) return v6Hex(text);
  const v4 = v4Hex(text);
  return v4 === null ? null : V4_PREFIX + v4;
}

/** Whether a key is an IPv4 address (or an IPv4-mapped IPv6 one). */
export const isV4Key = (key: IpKey): boolean => key.startsWith(V4_PREFIX);

/** The key with every bit past `bits` (of 128) set to `fill`. */
export function maskKey(key: IpKey, bits: number, fill: 0 | 1): IpKey {
  const whole = bits >> 2;
  if (whole >= 32) return key;
  const rest = bits & 3;
  const pad = fill === 1 ? "f" : "0";
  let head = key.slice(0, whole);
  if (rest > 0) {
    const nibble = parseInt(key[whole] as string, 16);
    const low = (1 << (4 - rest)) - 1;
    head += HEX.charAt(fill === 1 ? nibble | low : nibble & ~low & 15);
    return head + pad.repeat(31 - whole);
  }
  return head + pad.repeat(32 - whole);
}

/** The text of an address key: dotted for IPv4, RFC 5952 for IPv6. */
export function formatIp(key: IpKey): string {
  if (isV4Key(key)) {
    const bytes: number[] = [];
    for (let i = 24; i < 32; i += 2) bytes.push(parseInt(key.slice(i, i + 2), 16));
    return bytes.join(".");
  }
  const groups: string[] = [];
  for (let i = 0; i < 32; i += 4) groups.push(parseInt(key.slice(i, i + 4), 16).toString(16));
  // the longest run of two or more zero groups, the first of equals, becomes "::"
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === "0") j++;
    if (j - i > bestLength) [best, bestLength] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  if (best === -1) return groups.join(":");
  return `${groups.slice(0, best).join(":")}::${groups.slice(best + bestLength).join(":")}`;
}
