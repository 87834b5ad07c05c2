import "server-only";
import { limitArgs } from "@/lib/check/limiter/args";
import type { AlgorithmCodec } from "@/lib/check/limiter/types";

// gcra: Generic cell rate algorithm: T = W/L, tau = (B-1)*T; admits when max(TAT, now) +
// cost*T - now <= tau + T. Reports remaining as redis-cell does. With action delay: the wait
// is max(TAT,now) + cost*T - (tau+T) - now when positive, up to maxDelay. Same arithmetic as
// the leaky bucket (a virtual-scheduling meter); stored as its level, TAT = t + x/L.
// Script part: lua/algorithms/buckets.lua (state layout, reply fields). The reply's six
// integers are read the same way for every algorithm (readReply in lib/limiter/evaluate.ts).

export const gcra: AlgorithmCodec = {
  algorithm: "gcra",
  tag: "g",
  args: limitArgs,
};
