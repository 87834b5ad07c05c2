// The one request shape the lean front answers itself: `POST /api/check`,
// `/api/check/batch`, `/api/check/release` or `/api/check/adjust`, HTTP/1.1, a Host, at most one Content-Length and one
// Authorization, no Transfer-Encoding, Expect or Upgrade. Anything else, malformed or merely
// unusual, is "foreign": the connection goes to node:http, which answers it (and its errors:
// 400, 431...) exactly as before. So this parser only has to recognise the common case
// strictly; it never has to answer an edge case of HTTP itself.

/** The check endpoints (counted in sluice_check_requests_total). */
export type Endpoint = "check" | "batch";
/** Every endpoint the front answers: the checks, and the calls that follow a check (a lease
 * released, a check adjusted), so a connection that sends one stays on the front. */
export type FrontEndpoint = Endpoint | "release" | "adjust";

export interface LeanRequest {
  endpoint: FrontEndpoint;
  authorization: string | undefined;
  /** body bytes that follow the head (0 without Content-Length) */
  contentLength: number;
  /** the client asked to close the connection after this answer */
  close: boolean;
}

/** node:http's default limit on a request head; a longer head is left to it (431). */
export const MAX_HEAD_BYTES = 16 * 1024;

/** headEnd: the head is not complete yet; more bytes may complete it. */
export const HEAD_INCOMPLETE = -1;
/** headEnd: not this parser's head (a bare-LF end, or longer than node:http allows). */
export const HEAD_FOREIGN = -2;

/** Where the head at the start of `data` ends (its CRLF CRLF), or HEAD_INCOMPLETE or HEAD_FOREIGN. */
export function headEnd(data: Buffer): number {
  const end = data.indexOf("\r\n\r\n");
  // A head ending in a bare LF is not this parser's: node:http answers it (400 or
  // parses it) rather than the front waiting for a CRLF that never comes. (With a
  // CRLF end found, a bare LF inside the head makes parseRequestHead refuse it.)
  if (end < 0 && (data.indexOf("\n\n") >= 0 || data.indexOf("\n\r\n") >= 0)) return HEAD_FOREIGN;
  if (end < 0 || end > MAX_HEAD_BYTES) {
    return end >= 0 || data.length > MAX_HEAD_BYTES ? HEAD_FOREIGN : HEAD_INCOMPLETE;
  }
  return end;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// RFC 9110 field-value characters (latin1 text: bytes 0x80-0xff are obs-text); no CR or LF.
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
// origin-form only; the query string is ignored, as on the node:http path
const TARGET = /^\/api\/check(?:\/(batch|release|adjust))?(?:\?[\x21-\x7e]*)?$/;
const SUFFIXES = new Map<string, FrontEndpoint>([
  ["batch", "batch"],
  ["release", "release"],
  ["adjust", "adjust"],
]);
const DIGITS = /^\d{1,15}$/;
const PREFIX = "POST /api/check";
const VERSION = " HTTP/1.1";

function trimWhitespace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (text.charCodeAt(start) === 32 || text.charCodeAt(start) === 9)) start++;
  while (end > start && (text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9)) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** Options of a Connection header: whether it asks to close, or to upgrade (foreign). */
function connectionOptions(value: string): "close" | "upgrade" | null {
  let close = false;
  for (const option of value.toLowerCase().split(",")) {
    const token = trimWhitespace(option);
    if (token === "upgrade") return "upgrade";
    if (token === "close") close = true;
  }
  return close ? "close" : null;
}

/**
 * Reads a request head: latin1 text (one character per byte) of the request line and the
 * header lines, without the blank line that ends it. Returns null when it is foreign.
 */
export function parseRequestHead(head: string): LeanRequest | null {
  const firstEnd = head.indexOf("\r\n");
  const requestLine = firstEnd < 0 ? head : head.slice(0, firstEnd);
  if (!requestLine.startsWith(PREFIX) || !requestLine.endsWith(VERSION)) return null;
  const target = TARGET.exec(requestLine.slice(5, requestLine.length - VERSION.length));
  if (!target) return null;

  let authorization: string | undefined;
  let contentLength = -1;
  let host = false;
  let close = false;
  let at = firstEnd < 0 ? head.length : firstEnd + 2;
  while (at < head.length) {
    let end = head.indexOf("\r\n", at);
    if (end < 0) end = head.length;
    const line = head.slice(at, end);
    at = end + 2;
    const colon = line.indexOf(":");
    // no colon, an empty name, or obs-fold (a line starting with white space)
    if (colon <= 0) return null;
    const name = line.slice(0, colon);
    if (!TOKEN.test(name)) return null;
    const value = trimWhitespace(line.slice(colon + 1));
    if (!FIELD_VALUE.test(value)) return null;
    switch (name.toLowerCase()) {
      case "host":
        if (host) return null;
        host = true;
        break;
      case "authorization":
        if (authorization !== undefined) return null;
        authorization = value;
        break;
      case "content-length":
        if (contentLength >= 0 || !DIGITS.test(value)) return null;
        contentLength = Number(value);
        break;
      case "connection": {
        const option = connectionOptions(value);
        if (option === "upgrade") return null;
        if (option === "close") close = true;
        break;
      }
      case "transfer-encoding":
      case "expect":
      case "upgrade":
        return null;
    }
  }
  if (!host) return null;
  return {
    endpoint: target[1] === undefined ? "check" : (SUFFIXES.get(target[1]) ?? "check"),
    authorization,
    contentLength: Math.max(0, contentLength),
    close,
  };
}
