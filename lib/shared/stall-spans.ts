// How many event-loop stall spans a check front keeps and GET /api/metrics/stalls answers at
// most: one figure for the ring (lib/check/loop-stalls.ts), the endpoint and the OpenAPI
// document, which once capped the answer at an older ring size and failed the contract test.
// At a 2 ms tick, at least 8 s of stalls; far longer on a healthy machine.
export const STALL_SPANS = 4_096;
