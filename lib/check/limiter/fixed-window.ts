import "server-only";
import { limitArgs } from "@/lib/check/limiter/args";
import type { AlgorithmCodec } from "@/lib/check/limiter/types";

// fixed_window: Counter per aligned window floor(now/W): admits when count + cost <= L. Allows
// up to 2L around a window edge (L at the end of one window, L at the start of the next);
// cheap and exact.
// Script part: lua/algorithms/fixed-window.lua (state layout, reply fields). The reply's six
// integers are read the same way for every algorithm (readReply in lib/limiter/evaluate.ts).

export const fixedWindow: AlgorithmCodec = {
  algorithm: "fixed_window",
  tag: "f",
  args: limitArgs,
};
