import "server-only";
import type { RedisClient } from "@/lib/shared/redis/redis";
import type { LimitSpec } from "@/lib/check/limiter/types";
import { limitKey } from "@/lib/check/limiter/keys";
import { releaseScript } from "@/lib/check/limiter/script";
import { runScript } from "@/lib/shared/redis/ioredis-scripts";
import { nowOverride, type EvaluateOptions } from "@/lib/check/limiter/clock";

// A lease released from the concurrency limits of a check, by its specs (the check path
// releases by token instead: lib/check/lease). How many lease sets held it: 0 when it was
// released before or has expired (by Redis TIME, or the tests' virtual clock in `options`).

export async function releaseLease(
  redis: RedisClient,
  limits: readonly LimitSpec[],
  lease: number,
  options?: EvaluateOptions,
): Promise<number> {
  const keys = limits.filter((spec) => spec.rule.algorithm === "concurrency").map(limitKey);
  if (keys.length === 0) return 0;
  const reply = await runScript(redis, releaseScript(), keys, [String(lease), nowOverride(options)]);
  if (typeof reply !== "number") throw new Error("concurrency-release: the reply is not an integer");
  return reply;
}
