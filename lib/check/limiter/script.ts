import "server-only";
import { readScript } from "@/lib/shared/redis/lua-files";
import type { Script } from "@/lib/shared/redis/script-client";

// The scripts: lua/common.lua, the algorithm fragments and lua/run-check.lua, then the entry
// (lua/check.lua for one check, lua/check-many.lua for several in one call), as one text each
// (Redis runs a script as a single chunk; the fragments keep one algorithm per file).
// Clients send EVALSHA and, on NOSCRIPT (after SCRIPT FLUSH or a Redis restart), the text
// again (lib/check/limiter/lean-redis, lib/limiter/ioredis-scripts.ts): callers never see that error.

const SHARED_FILES = [
  "common.lua",
  "algorithms/fixed-window.lua",
  "algorithms/sliding-log.lua",
  "algorithms/sliding-window.lua",
  "algorithms/buckets.lua",
  "algorithms/concurrency.lua",
  "algorithms/calendar.lua",
  "run-check.lua",
] as const;

export const SCRIPT_FILES = [...SHARED_FILES, "check.lua"] as const;
export const MANY_SCRIPT_FILES = [...SHARED_FILES, "check-many.lua"] as const;
export const DROP_SCRIPT_FILES = ["common.lua", "drop-entries.lua"] as const;
export const RELEASE_SCRIPT_FILES = ["concurrency-release.lua"] as const;
export const READ_OWNERS_SCRIPT_FILES = ["common.lua", "read-owners.lua"] as const;

let single: Script | undefined;
let many: Script | undefined;
let drop: Script | undefined;
let readOwners: Script | undefined;
let release: Script | undefined;

/** lua/concurrency-release.lua: one lease released from its check's concurrency limits. */
export function releaseScript(): Script {
  return (release ??= readScript(RELEASE_SCRIPT_FILES));
}

export function checkScript(): Script {
  return (single ??= readScript(SCRIPT_FILES));
}

export function checkManyScript(): Script {
  return (many ??= readScript(MANY_SCRIPT_FILES));
}

/** lua/drop-entries.lua: counters removed from owner keys (admin resets). */
export function dropEntriesScript(): Script {
  return (drop ??= readScript(DROP_SCRIPT_FILES));
}

/** lua/read-owners.lua: the counters of many owners in one read (the dashboard's limit tree). */
export function readOwnersScript(): Script {
  return (readOwners ??= readScript(READ_OWNERS_SCRIPT_FILES));
}

/**
 * The scripts' reply: an array of integers (Redis turns the Lua table of numbers into one),
 * each below 2^53. Anything else throws rather than being misread.
 */
export function parseReply(reply: unknown): number[] {
  if (!Array.isArray(reply)) throw new Error("limiter script: the reply is not an array");
  for (let i = 0; i < reply.length; i++) {
    if (!Number.isSafeInteger(reply[i])) throw new Error(`limiter script: reply item ${i} is not an integer`);
  }
  return reply as number[];
}
