import "server-only";
import { limitArgs } from "@/lib/check/limiter/args";
import type { AlgorithmCodec } from "@/lib/check/limiter/types";

// leaky_bucket: A meter (the policing form): the level drains at L/W per ms and a check is
// admitted when level + cost <= B (default L). With action delay the level may go past B by up
// to maxDelay's worth: the check waits (level + cost - B)/(L/W).
// Script part: lua/algorithms/buckets.lua (state layout, reply fields). The reply's six
// integers are read the same way for every algorithm (readReply in lib/limiter/evaluate.ts).

export const leakyBucket: AlgorithmCodec = {
  algorithm: "leaky_bucket",
  tag: "k",
  args: limitArgs,
};
