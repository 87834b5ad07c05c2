// An IPv6 address as its eight 16-bit words, so that the address policy can read the IPv4
// address some forms carry whatever way the address was written (::ffff:7f00:1 and
// ::ffff:127.0.0.1 are one address). Pure; the input must already pass net.isIP() === 6.

/** The eight words of a valid IPv6 address (zone id already removed). */
export function ipv6Words(address: string): number[] {
  let text = address.toLowerCase();
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const before = head === "" ? [] : head.split(":");
  const after = tail === undefined || tail === "" ? [] : tail.split(":");
  const gap = tail === undefined ? 0 : 8 - before.length - after.length;
  return [...before, ...Array<string>(gap).fill("0"), ...after].map((word) => parseInt(word, 16));
}

/** Two words as a dotted IPv4 address. */
export function wordsToV4(high: number | undefined, low: number | undefined): string {
  const hi = high ?? 0;
  const lo = low ?? 0;
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}
