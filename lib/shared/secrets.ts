import "server-only";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

// Secrets (API keys, tokens) are 192 random bits, shown once, stored as SHA-256 + a prefix
// for display. A fast hash is right here: the secret has full entropy, unlike a password.

export interface NewSecret {
  secret: string;
  hash: string;
  prefix: string;
}

// sk API key, st service token, at admin token, inv invitation link, rst password reset link
export type SecretKind = "sk" | "st" | "at" | "inv" | "rst";

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export function displayPrefix(secret: string): string {
  return secret.slice(0, secret.indexOf("_") + 9);
}

export function newSecret(kind: SecretKind): NewSecret {
  const secret = `${kind}_${randomBytes(24).toString("base64url")}`;
  return { secret, hash: sha256Hex(secret), prefix: displayPrefix(secret) };
}

/** A given secret (the demo seed's stable ones) in stored form, or a new random one. */
export function givenOrNewSecret(kind: SecretKind, given: string | undefined): NewSecret {
  return given ? { secret: given, hash: sha256Hex(given), prefix: displayPrefix(given) } : newSecret(kind);
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
