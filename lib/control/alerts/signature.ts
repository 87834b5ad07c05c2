import { createHmac, timingSafeEqual } from "node:crypto";

// Webhook signatures: HMAC-SHA256 over "<unix seconds>.<body>" with the endpoint's secret,
// sent as `x-sluice-signature: t=<seconds>,v1=<hex>`. The timestamp is inside the signed
// text, so a captured delivery cannot be replayed later with a fresh time. Isomorphic (no
// server-only): receivers and tests use the same verify.

export const SIGNATURE_HEADER = "x-sluice-signature";
/** Receivers should refuse deliveries signed longer ago than this. */
export const DEFAULT_TOLERANCE_S = 300;

export function signatureOf(secret: string, timestamp: number, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${signatureOf(secret, timestamp, body)}`;
}

/** Whether the header signs this body with this secret, within `toleranceS` of `nowS`. */
export function verifySignature(
  secret: string,
  header: string,
  body: string,
  nowS: number = Math.floor(Date.now() / 1000),
  toleranceS: number = DEFAULT_TOLERANCE_S,
): boolean {
  const parts = new Map(
    header.split(",").map((p) => [p.slice(0, p.indexOf("=")).trim(), p.slice(p.indexOf("=") + 1)]),
  );
  const timestamp = Number(parts.get("t"));
  const given = parts.get("v1") ?? "";
  if (!Number.isInteger(timestamp) || Math.abs(nowS - timestamp) > toleranceS) return false;
  const expected = Buffer.from(signatureOf(secret, timestamp, body), "hex");
  const actual = Buffer.from(given, "hex");
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
