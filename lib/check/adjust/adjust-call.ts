import "server-only";
import type { RedisClient } from "@/lib/shared/redis/redis";
import { readScript } from "@/lib/shared/redis/lua-files";
import type { Script } from "@/lib/shared/redis/script-client";
import { runScript } from "@/lib/shared/redis/ioredis-scripts";
import { tenantTag } from "@/lib/check/limiter/keys";
import { nowOverride, type EvaluateOptions } from "@/lib/check/limiter/clock";
import type { ScriptCall } from "@/lib/check/limiter/evaluate";
import { parseReply } from "@/lib/check/limiter/script";
import type { CheckTicket } from "@/lib/check/adjust/ticket";
import {
  ADJUST_EFFECTS,
  ADJUST_STATUSES,
  ADJUST_WINDOW_MS,
  MAX_HELD,
  type AdjustRequest,
  type AdjustResult,
} from "@/lib/check/adjust/adjust-terms";

// One adjustment as lua/adjust/adjust.lua takes it (its header has the layout) and its reply.

export const ADJUST_SCRIPT_FILES = ["common.lua", "adjust/algorithms.lua", "adjust/adjust.lua"] as const;

let script: Script | undefined;

export function adjustScript(): Script {
  return (script ??= readScript(ADJUST_SCRIPT_FILES));
}

/** The record of a check's adjustments: under its tenant's hash tag, named by the id's MAC. */
export function adjustRecordKey(tenantId: string, mac: string): string {
  return `${tenantTag(tenantId)}:adj:${mac}`;
}

export function buildAdjustCall(
  ticket: CheckTicket,
  mac: string,
  request: AdjustRequest,
  options?: EvaluateOptions,
): ScriptCall {
  const tag = tenantTag(ticket.tenantId);
  // the id is signed, so its keys are ours; still, never a key outside the id's tenant
  if (ticket.keys.some((k) => !k.startsWith(`${tag}:`)))
    throw new RangeError("check id: a key of another tenant");
  const keys = [adjustRecordKey(ticket.tenantId, mac), ...ticket.keys];
  const args: Array<number | string> = [
    request.amount,
    request.idempotencyKey,
    ticket.at,
    ticket.cost,
    ticket.at + ADJUST_WINDOW_MS,
    MAX_HELD,
    nowOverride(options),
  ];
  for (const [k, code, L, W, B, entry] of ticket.limits) args.push(k + 2, code, L, W, B, entry);
  return { keys, args };
}

export function readAdjustReply(ticket: CheckTicket, raw: unknown): AdjustResult {
  const reply = parseReply(raw);
  const status = ADJUST_STATUSES[reply[0] ?? -1];
  if (status === undefined) throw new Error(`adjust script: bad status ${reply[0]}`);
  const effects = reply.slice(3).map((e) => {
    const effect = ADJUST_EFFECTS[e];
    if (effect === undefined) throw new Error(`adjust script: bad effect ${e}`);
    return effect;
  });
  const done = status === "applied" || status === "replayed";
  if (done && effects.length !== ticket.limits.length)
    throw new Error(`adjust script: ${effects.length} effects for ${ticket.limits.length} limits`);
  return { status, held: reply[1] ?? 0, nowMs: reply[2] ?? 0, effects };
}

/** One adjustment through ioredis (tests, and the endpoint's control connection). */
export async function evaluateAdjust(
  redis: RedisClient,
  ticket: CheckTicket,
  mac: string,
  request: AdjustRequest,
  options?: EvaluateOptions,
): Promise<AdjustResult> {
  const { keys, args } = buildAdjustCall(ticket, mac, request, options);
  return readAdjustReply(ticket, await runScript(redis, adjustScript(), keys, args));
}
