// Decisions counted by outcome: what the recorder counts, the rollup stores (the data
// layer's usage rows) and the reads add up.
export interface Counts {
  allowed: number;
  rejected: number;
  shadowRejected: number;
  degraded: number;
}
