import "server-only";
import type { Algorithm } from "@/lib/shared/limit-types";
import type { AlgorithmCodec } from "@/lib/check/limiter/types";
import { fixedWindow } from "@/lib/check/limiter/fixed-window";
import { slidingLog } from "@/lib/check/limiter/sliding-log";
import { slidingWindow } from "@/lib/check/limiter/sliding-window";
import { tokenBucket } from "@/lib/check/limiter/token-bucket";
import { leakyBucket } from "@/lib/check/limiter/leaky-bucket";
import { gcra } from "@/lib/check/limiter/gcra";
import { concurrency } from "@/lib/check/limiter/concurrency";
import { calendarQuota } from "@/lib/check/limiter/calendar";

const CODECS: Record<Algorithm, AlgorithmCodec> = {
  fixed_window: fixedWindow,
  sliding_log: slidingLog,
  sliding_window: slidingWindow,
  token_bucket: tokenBucket,
  leaky_bucket: leakyBucket,
  gcra,
  concurrency,
  calendar: calendarQuota,
};

export function codecFor(algorithm: Algorithm): AlgorithmCodec {
  const codec = CODECS[algorithm];
  if (!codec) throw new RangeError(`unknown algorithm ${String(algorithm)}`);
  return codec;
}
