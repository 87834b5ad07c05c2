import { randomBytes } from "node:crypto";

// Lease ids: random safe integers (53 bits), so a lease cannot be guessed from another one
// (a release names its lease, docs/api.md) and two servers never hand out the same. Drawn
// from a pool of random bytes refilled in blocks: one randomBytes call per 512 leases.

const BLOCK = 512;
let pool = Buffer.alloc(0);
let at = 0;

export function newLeaseId(): number {
  if (at + 8 > pool.length) {
    pool = randomBytes(8 * BLOCK);
    at = 0;
  }
  const high = pool.readUInt32LE(at) & 0x1f_ffff; // 21 bits
  const low = pool.readUInt32LE(at + 4);
  at += 8;
  // never 0: the lease's text is never empty or "0"
  return high * 0x1_0000_0000 + low || 1;
}

/** Whether a check's limits include a concurrency limit (it then needs a lease id). */
export function takesLease(limits: readonly { rule: { algorithm: string } }[]): boolean {
  for (const limit of limits) if (limit.rule.algorithm === "concurrency") return true;
  return false;
}
