import "server-only";
import type { RedisClient } from "@/lib/shared/redis/redis";
import type { CheckDecision, CheckRequest, LimitSpec } from "@/lib/check/limiter/types";
import { entryOf, limitKey } from "@/lib/check/limiter/keys";
import { specArgs } from "@/lib/check/limiter/spec-args";
import { readLimitReply, summarize } from "@/lib/check/limiter/decide";
import { nowOverride, type EvaluateOptions } from "@/lib/check/limiter/clock";
import { checkScript, parseReply } from "@/lib/check/limiter/script";
import { runScript } from "@/lib/shared/redis/ioredis-scripts";
import { newLeaseId, takesLease } from "@/lib/check/limiter/lease-id";

// One check = one script call over all its limits (lua/check.lua): every enforce limit admits
// and all consume, or nothing is consumed. Redis is not touched when no limit applies.

const MAX_COST = 1_000_000_000;

/** The check's keys, after checking its cost and limits (throws RangeError). */
export function validate(limits: readonly LimitSpec[], request: CheckRequest): string[] {
  const { cost } = request;
  if (!Number.isSafeInteger(cost) || cost < 1 || cost > MAX_COST) {
    throw new RangeError(`cost must be an integer 1..${MAX_COST}, got ${cost}`);
  }
  const keys = limits.map(limitKey);
  // Limits of one owner share a key: a counter is a key and an entry. A check has a handful
  // of limits: pairwise is cheaper than a Set per check.
  for (let i = 1; i < keys.length; i++) {
    for (let j = 0; j < i; j++) {
      if (keys[j] === keys[i] && entryOf(limits[j] as LimitSpec) === entryOf(limits[i] as LimitSpec))
        throw new RangeError("a check lists the same limit and identity twice");
    }
  }
  const tenant = limits[0]?.tenantId;
  if (limits.some((l) => l.tenantId !== tenant)) {
    throw new RangeError("all limits of one check must belong to one tenant (one Redis Cluster slot)");
  }
  return keys;
}

export interface ScriptCall {
  keys: string[];
  args: Array<number | string>;
}

/** KEYS and ARGV of lua/check.lua for one check. */
export function buildCall(
  limits: readonly LimitSpec[],
  request: CheckRequest,
  options?: EvaluateOptions,
): ScriptCall {
  const keys = validate(limits, request);
  const override = nowOverride(options);
  // a calendar limit's period is the one containing the script's own now
  const at = override < 0 ? undefined : override;
  const args: Array<number | string> = [request.cost, request.dryRun ? 1 : 0, override];
  for (const spec of limits) for (const value of specArgs(spec, at)) args.push(value);
  // a concurrency limit takes the check's lease id (ARGV after the rules)
  if (request.lease !== undefined) args.push(request.lease);
  else if (takesLease(limits)) args.push(newLeaseId());
  return { keys, args };
}

/** Reads the script's reply: { allowed, nowMs, six integers per limit }. */
export function readReply(limits: readonly LimitSpec[], reply: readonly number[]): CheckDecision {
  if (reply.length !== 2 + 6 * limits.length)
    throw new Error(`limiter script: reply of ${reply.length} integers`);
  const decision = summarize(
    limits.map((spec, i) => readLimitReply(spec, reply.slice(2 + 6 * i, 8 + 6 * i))),
  );
  if (decision.allowed !== (reply[0] === 1))
    throw new Error("limiter script: verdict disagrees with its limits");
  return decision;
}

export async function evaluate(
  redis: RedisClient,
  limits: readonly LimitSpec[],
  request: CheckRequest,
  options?: EvaluateOptions,
): Promise<CheckDecision> {
  if (limits.length === 0) return summarize([]);
  const { keys, args } = buildCall(limits, request, options);
  return readReply(limits, parseReply(await runScript(redis, checkScript(), keys, args)));
}
