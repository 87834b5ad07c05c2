// Decisions counted by outcome, and the leases of concurrency limits: what the recorder
// counts, the rollup stores (the data layer's usage rows) and the reads add up.
export interface Counts {
  allowed: number;
  rejected: number;
  shadowRejected: number;
  degraded: number;
  /** leases taken by admitted checks */
  leasesAcquired: number;
  /** leases released before they expired (POST /api/check/release answered released: true) */
  leasesReleased: number;
  /** leases whose window ran out before a release: counted at their expiry */
  leasesExpired: number;
}
