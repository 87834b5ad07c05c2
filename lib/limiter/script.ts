import "server-only";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { RedisClient } from "@/lib/redis";

// The scripts: lua/common.lua, the algorithm fragments and lua/run-check.lua, then the entry
// (lua/check.lua for one check, lua/check-many.lua for several in one call), as one text each
// (Redis runs a script as a single chunk; the fragments keep one algorithm per file).
// ioredis `defineCommand` sends EVAL once per connection, then EVALSHA, and on NOSCRIPT (after
// SCRIPT FLUSH or a Redis restart) sends the text again, so callers never see that error.

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

type Script = { lua: string; sha: string };

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

type CheckCommand = (...keysAndArgs: Array<string | number>) => Promise<string>;

// One command per script and key count (sluiceCheck1, sluiceMany8, ...), each with a fixed
// numberOfKeys: ioredis' auto-pipelining on a Cluster routes a custom command by its first
// argument, which must then be the first key, not the key count. They are all defined the
// first time a client is seen: an auto-pipeline copies the client's commands when it is
// created, so a command defined while one is open for the tick is missing from it.
// check-many calls pad KEYS to a power of two (repeating their first key, same slot; the
// script reads keys by position and ignores the rest), which bounds the commands to define.
const SINGLE_COUNTS = 16;
const MANY_COUNTS = Array.from({ length: 12 }, (_, i) => 2 ** (i + 1)); // 2 .. 4096

const defined = new WeakMap<RedisClient, Set<string>>();

function define(redis: RedisClient, names: Set<string>, name: string, lua: string, numKeys: number): void {
  redis.defineCommand(name, { lua, numberOfKeys: numKeys });
  names.add(name);
}

function commandFor(redis: RedisClient, name: string, script: () => Script, numKeys: number): CheckCommand {
  let names = defined.get(redis);
  if (!names) {
    defined.set(redis, (names = new Set()));
    for (let n = 1; n <= SINGLE_COUNTS; n++) define(redis, names, `sluiceCheck${n}`, checkScript().lua, n);
    for (const n of MANY_COUNTS) define(redis, names, `sluiceMany${n}`, checkManyScript().lua, n);
  }
  if (!names.has(name)) define(redis, names, name, script().lua, numKeys);
  return (redis as unknown as Record<string, CheckCommand>)[name] as CheckCommand;
}

/** The padded key count of a check-many call: the next power of two (at least 2). */
export function manyKeyCount(numKeys: number): number {
  let n = 2;
  while (n < numKeys) n *= 2;
  return n;
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

/** Runs the check script: KEYS then ARGV exactly as lua/check.lua's header lists them. */
export async function runCheckScript(
  redis: RedisClient,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<number[]> {
  const command = commandFor(redis, `sluiceCheck${keys.length}`, checkScript, keys.length);
  return parseReply(await command.call(redis, ...keys, ...args));
}

/** Runs lua/check-many.lua: KEYS (padded here) then ARGV as its header lists them. */
export async function runCheckManyScript(
  redis: RedisClient,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<number[]> {
  const count = manyKeyCount(keys.length);
  const padded = keys.slice();
  while (padded.length < count) padded.push(keys[0] as string);
  const command = commandFor(redis, `sluiceMany${count}`, checkManyScript, count);
  return parseReply(await command.call(redis, ...padded, ...args));
}
