import "server-only";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Script } from "@/lib/limiter/script-client";

// The scripts: lua/common.lua, the algorithm fragments and lua/run-check.lua, then the entry
// (lua/check.lua for one check, lua/check-many.lua for several in one call), as one text each
// (Redis runs a script as a single chunk; the fragments keep one algorithm per file).
// Clients send EVALSHA and, on NOSCRIPT (after SCRIPT FLUSH or a Redis restart), the text
// again (lib/limiter/lean-redis, lib/limiter/ioredis-scripts.ts): callers never see that error.

const SHARED_FILES = [
  "common.lua",
  "algorithms/fixed-window.lua",
  "algorithms/sliding-log.lua",
  "algorithms/sliding-window.lua",
  "algorithms/buckets.lua",
  "run-check.lua",
] as const;

export const SCRIPT_FILES = [...SHARED_FILES, "check.lua"] as const;
export const MANY_SCRIPT_FILES = [...SHARED_FILES, "check-many.lua"] as const;

/** Read from the working directory (the app's root for `next start`, tests and scripts). */
function readScript(files: readonly string[]): Script {
  const dir = join(process.cwd(), "lua");
  const lua = files.map((file) => readFileSync(join(dir, file), "utf8")).join("\n");
  return { lua, sha: createHash("sha1").update(lua).digest("hex") };
}

let single: Script | undefined;
let many: Script | undefined;

export function checkScript(): Script {
  return (single ??= readScript(SCRIPT_FILES));
}

export function checkManyScript(): Script {
  return (many ??= readScript(MANY_SCRIPT_FILES));
}

/**
 * The scripts' reply: integers (below 2^53) separated by single spaces, as run-check.lua
 * writes them with %d. Read digit by digit, without a string per number; anything
 * else (an exponent, a stray character) throws rather than being misread.
 */
export function parseReply(reply: unknown): number[] {
  if (typeof reply !== "string") throw new Error("limiter script: the reply is not a string");
  const out: number[] = [];
  let value = 0;
  let sign = 1;
  let digits = 0;
  for (let i = 0; i <= reply.length; i++) {
    const c = i < reply.length ? reply.charCodeAt(i) : 32;
    if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      digits++;
    } else if (c === 32 && digits > 0) {
      out.push(sign * value);
      value = 0;
      sign = 1;
      digits = 0;
    } else if (c === 45 && digits === 0 && sign === 1) {
      sign = -1;
    } else {
      throw new Error(`limiter script: unreadable reply at character ${i}`);
    }
  }
  return out;
}
