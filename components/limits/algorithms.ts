import type { Algorithm } from "@/lib/shared/limit-types";

// One line each, for the editor's algorithm list.
export const ALGORITHM_HELP: Record<Algorithm, { title: string; line: string }> = {
  token_bucket: {
    title: "Token bucket",
    line: "Allows bursts up to the burst size, refilling steadily at limit per window.",
  },
  gcra: {
    title: "GCRA",
    line: "Smooth spacing of requests with a burst tolerance; can delay instead of reject.",
  },
  leaky_bucket: {
    title: "Leaky bucket",
    line: "A level that drains at limit per window; bursts beyond the burst size wait or fail.",
  },
  fixed_window: {
    title: "Fixed window",
    line: "Counts per calendar window; cheap, but allows up to 2× at a window edge.",
  },
  sliding_window: {
    title: "Sliding window",
    line: "Weights the previous window's count: near-exact and cheap.",
  },
  sliding_log: {
    title: "Sliding log",
    line: "Exact count over the last window; costs memory per admitted request.",
  },
  concurrency: {
    title: "Concurrency",
    line: "At most limit requests in flight at once; the window is the lease timeout.",
  },
  calendar: {
    title: "Calendar quota",
    line: "Counts per calendar day, ISO week or month in a time zone; resets at its midnight.",
  },
};
