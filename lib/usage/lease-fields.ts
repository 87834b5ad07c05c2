import "server-only";
import type { Counts } from "@/lib/shared/usage-counts";

// Lease counts in a minute's pairs hash (keys.ts, :p:), beside the decision outcomes and
// stored alike ("<second>:<count>" entries, pair-series.ts), under codes of two letters
// that the outcome readers do not know and skip. Expiries are counted exactly without
// watching the lease sets: a lease is counted "due" at its expiry when it is taken, and
// "released before due" at that same expiry when a release ends it in time, so the leases
// expired in a second are its due ones less those released before (both only ever grow).
// Due entries lie in the future when written: readers leave out those not yet reached.

export type LeaseTally = "acquired" | "released" | "due" | "releasedDue";

const LEASE_CODE: Record<LeaseTally, string> = {
  acquired: "la",
  released: "lr",
  due: "ld",
  releasedDue: "lu",
};
const CODE_LEASE: Record<string, LeaseTally> = {
  la: "acquired",
  lr: "released",
  ld: "due",
  lu: "releasedDue",
};

export function leaseField(keyId: string, route: string, tally: LeaseTally): string {
  return `${keyId}|${route}|${LEASE_CODE[tally]}`;
}

export interface ParsedLeaseField {
  keyId: string;
  route: string;
  tally: LeaseTally;
}

/** A pairs-hash field of lease counts, or null (an outcome's field, or malformed). */
export function parseLeaseField(field: string): ParsedLeaseField | null {
  const first = field.indexOf("|");
  const last = field.lastIndexOf("|");
  if (first < 0 || last <= first) return null;
  const tally = CODE_LEASE[field.slice(last + 1)];
  if (tally === undefined) return null;
  return { keyId: field.slice(0, first), route: field.slice(first + 1, last), tally };
}

/** Whether the tally is dated by a lease's expiry (possibly still ahead) rather than when counted. */
export function atExpiry(tally: LeaseTally): boolean {
  return tally === "due" || tally === "releasedDue";
}

/** Adds `count` of a lease tally to the counts (a release before due takes one expiry off). */
export function addLeaseTally(into: Counts, tally: LeaseTally, count: number): void {
  if (tally === "acquired") into.leasesAcquired += count;
  else if (tally === "released") into.leasesReleased += count;
  else if (tally === "due") into.leasesExpired += count;
  else into.leasesExpired -= count;
}
