import "server-only";
import type { RedisClient } from "@/lib/redis";
import type { Check, CheckDecision } from "@/lib/limiter/types";
import { buildCall, readReply, type ScriptCall } from "@/lib/limiter/evaluate";
import { nowOverride, type EvaluateOptions } from "@/lib/limiter/clock";
import { runCheckManyScript } from "@/lib/limiter/script";

// Several checks of one tenant in ONE script call (lua/check-many.lua), decided in order,
// each all-or-nothing on its own exactly as evaluate() decides it alone. One call instead of
// one per check saves the per-command cost of ioredis and of Redis (EVALSHA set-up, reply).

/** A check ready to send: its KEYS and its part of ARGV (cost, dryRun, n, six per limit). */
export interface PreparedCheck {
  check: Check;
  keys: string[];
  /** cost, dryRun, n, then the limits' six integers (check-many.lua's per-check ARGV) */
  args: number[];
}

/** Validates one check (throws RangeError as evaluate() would) and lays out its ARGV part. */
export function prepareCheck(check: Check): PreparedCheck {
  const call: ScriptCall = buildCall(check.limits, check.request);
  // buildCall's ARGV starts cost, dryRun, now override; check-many puts n in the third place
  call.args[2] = check.limits.length;
  return { check, keys: call.keys, args: call.args };
}

/** KEYS and ARGV of lua/check-many.lua for checks of one tenant, in order. */
export function buildManyCall(
  prepared: readonly PreparedCheck[],
  options?: EvaluateOptions,
): ScriptCall {
  const keys: string[] = [];
  const args: number[] = [nowOverride(options), prepared.length];
  for (const p of prepared) {
    for (const key of p.keys) keys.push(key);
    for (const arg of p.args) args.push(arg);
  }
  return { keys, args };
}

/** Splits check-many.lua's reply into one decision per check, in order. */
export function readManyReply(prepared: readonly PreparedCheck[], reply: readonly number[]): CheckDecision[] {
  const decisions: CheckDecision[] = [];
  let at = 0;
  for (const p of prepared) {
    const size = 2 + 6 * p.check.limits.length;
    decisions.push(readReply(p.check.limits, reply.slice(at, at + size)));
    at += size;
  }
  if (at !== reply.length) throw new Error(`limiter script: reply of ${reply.length} integers`);
  return decisions;
}

/**
 * Checks that all belong to one tenant (one hash tag, one Cluster slot), each with at least
 * one limit, decided in order in one call. A check that fails validation throws here, before
 * anything is sent; a failed call fails every check in it.
 */
export async function evaluateGroup(
  redis: RedisClient,
  prepared: readonly PreparedCheck[],
  options?: EvaluateOptions,
): Promise<CheckDecision[]> {
  const tenant = prepared[0]?.check.limits[0]?.tenantId;
  for (const p of prepared) {
    if (p.check.limits.length === 0) throw new RangeError("evaluateGroup: a check without limits");
    if (p.check.limits[0]?.tenantId !== tenant)
      throw new RangeError("evaluateGroup: checks of one call must belong to one tenant");
  }
  if (prepared.length === 0) return [];
  const { keys, args } = buildManyCall(prepared, options);
  return readManyReply(prepared, await runCheckManyScript(redis, keys, args));
}
