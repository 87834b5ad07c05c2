import { formatIp, isV4Key, maskKey, parseIp, type IpKey } from "@/lib/check/lists/ip-text";

// One entry of an allow or deny list: an IP address, a CIDR range or a subject. Text that
// looks like an address (digits and dots, or hex digits and colons, with or without a
// /prefix) must be one: "10.0.0.256" or "10.0.0.0/33" is an error, never a subject that no
// check could send on purpose.

export type ListEntry =
  | { kind: "ip"; key: IpKey }
  | { kind: "range"; start: IpKey; end: IpKey; bits: number }
  | { kind: "subject"; text: string };

export type EntryResult = { ok: true; entry: ListEntry } | { ok: false; message: string };

/** Longest subject a check may send (lib/check/body-schema.ts). */
export const MAX_SUBJECT_LENGTH = 256;

const LOOKS_V4 = /^[0-9.]+(\/[0-9]*)?$/;
const LOOKS_V6 = /^[0-9a-fA-F:.]*:[0-9a-fA-F:.]*(\/[0-9]*)?$/;

function rangeOf(text: string, slash: number): EntryResult {
  const address = text.slice(0, slash);
  const prefixText = text.slice(slash + 1);
  const key = parseIp(address);
  const v4 = !address.includes(":");
  const family = v4 ? "IPv4" : "IPv6";
  const most = v4 ? 32 : 128;
  if (key === null) return { ok: false, message: `${JSON.stringify(address)} is not an ${family} address` };
  if (!/^(0|[1-9][0-9]{0,2})$/.test(prefixText) || Number(prefixText) > most)
    return {
      ok: false,
      message: `the prefix length of ${JSON.stringify(text)} must be 0 to ${most} for ${family}`,
    };
  const prefix = Number(prefixText);
  const bits = v4 ? 96 + prefix : prefix;
  const start = maskKey(key, bits, 0);
  if (start !== key) {
    const network = `${formatIp(start)}/${prefix}`;
    return {
      ok: false,
      message: `${JSON.stringify(text)} has bits set past its /${prefix}; did you mean ${network}?`,
    };
  }
  if (bits === 128) return { ok: true, entry: { kind: "ip", key } };
  return { ok: true, entry: { kind: "range", start, end: maskKey(key, bits, 1), bits } };
}

/** Reads one list entry; the message says what is wrong (the caller adds the path). */
export function readEntry(text: string): EntryResult {
  if (text.length === 0 || text.length > MAX_SUBJECT_LENGTH)
    return { ok: false, message: `must be 1..${MAX_SUBJECT_LENGTH} characters` };
  const v4 = LOOKS_V4.test(text) && text.includes(".");
  const v6 = !v4 && LOOKS_V6.test(text);
  if (!v4 && !v6) {
    if (/\s/.test(text))
      return { ok: false, message: `${JSON.stringify(text)}: a subject holds no whitespace` };
    return { ok: true, entry: { kind: "subject", text } };
  }
  const slash = text.indexOf("/");
  if (slash !== -1) return rangeOf(text, slash);
  const key = parseIp(text);
  if (key === null)
    return {
      ok: false,
      message: `${JSON.stringify(text)} is not an ${v4 ? "IPv4" : "IPv6"} address or CIDR range`,
    };
  return { ok: true, entry: { kind: "ip", key } };
}

/** Whether an IP entry or range is IPv4 (for messages and the editor). */
export const isV4Entry = (entry: ListEntry): boolean =>
  entry.kind === "ip"
    ? isV4Key(entry.key)
    : entry.kind === "range"
      ? isV4Key(entry.start) && entry.bits >= 96
      : false;
