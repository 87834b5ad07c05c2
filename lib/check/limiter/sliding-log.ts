import "server-only";
import { limitArgs } from "@/lib/check/limiter/args";
import type { AlgorithmCodec } from "@/lib/check/limiter/types";

// sliding_log: Exact: the units admitted in (now-W, now] + cost <= L, from a sorted set of
// admitted checks (one entry per check holding its cost, never more than L entries).
// Script part: lua/algorithms/sliding-log.lua (state layout, reply fields). The reply's six
// integers are read the same way for every algorithm (readReply in lib/limiter/evaluate.ts).

export const slidingLog: AlgorithmCodec = {
  algorithm: "sliding_log",
  tag: "l",
  args: limitArgs,
};
