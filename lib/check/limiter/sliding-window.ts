import "server-only";
import { limitArgs } from "@/lib/check/limiter/args";
import type { AlgorithmCodec } from "@/lib/check/limiter/types";

// sliding_window: Approximate sliding window: the previous aligned window's count weighted by
// the part of it still inside (now-W, now], plus the current count. Two counters; never admits
// more than L in any aligned window.
// Script part: lua/algorithms/sliding-window.lua (state layout, reply fields). The reply's six
// integers are read the same way for every algorithm (readReply in lib/limiter/evaluate.ts).

export const slidingWindow: AlgorithmCodec = {
  algorithm: "sliding_window",
  tag: "s",
  args: limitArgs,
};
