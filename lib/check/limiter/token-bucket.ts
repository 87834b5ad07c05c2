import "server-only";
import { limitArgs } from "@/lib/check/limiter/args";
import type { AlgorithmCodec } from "@/lib/check/limiter/types";

// token_bucket: Capacity B (default L) tokens refilled continuously at L/W per ms, starting
// full: admits when tokens >= cost. Kept as the missing tokens (a meter level), so an absent
// key is a full bucket. action delay does not apply (treated as reject).
// Script part: lua/algorithms/buckets.lua (state layout, reply fields). The reply's six
// integers are read the same way for every algorithm (readReply in lib/limiter/evaluate.ts).

export const tokenBucket: AlgorithmCodec = {
  algorithm: "token_bucket",
  tag: "t",
  args: limitArgs,
};
