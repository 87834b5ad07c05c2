import "server-only";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { RedisClient } from "@/lib/redis";

// The check script: lua/common.lua, the algorithm fragments, then lua/check.lua, as one text
// (Redis runs a script as a single chunk; the fragments keep one algorithm per file).
// ioredis `defineCommand` sends EVAL once per connection, then EVALSHA, and on NOSCRIPT (after
// SCRIPT FLUSH or a Redis restart) sends the text again, so callers never see that error.

export const SCRIPT_FILES = [
  "common.lua",
  "algorithms/fixed-window.lua",
  "algorithms/sliding-log.lua",
  "algorithms/sliding-window.lua",
  "algorithms/buckets.lua",
  "check.lua",
] as const;

/** Read from the working directory (the app's root for `next start`, tests and scripts). */
function readScript(): string {
  const dir = join(process.cwd(), "lua");
  return SCRIPT_FILES.map((file) => readFileSync(join(dir, file), "utf8")).join("\n");
}

let cached: { lua: string; sha: string } | undefined;

export function checkScript(): { lua: string; sha: string } {
  if (!cached) {
    const lua = readScript();
    cached = { lua, sha: createHash("sha1").update(lua).digest("hex") };
  }
  return cached;
}

type ScriptReply = Array<number | string>;
type CheckCommand = (...keysAndArgs: Array<string | number>) => Promise<ScriptReply>;

// One command per key count (sluiceCheck1, sluiceCheck2, ...), each with a fixed
// numberOfKeys: ioredis' auto-pipelining on a Cluster routes a custom command by its first
// argument, which must then be the first key, not the key count.
const defined = new WeakMap<RedisClient, Set<number>>();

function commandFor(redis: RedisClient, numKeys: number): CheckCommand {
  const name = `sluiceCheck${numKeys}`;
  let counts = defined.get(redis);
  if (!counts) defined.set(redis, (counts = new Set()));
  if (!counts.has(numKeys)) {
    redis.defineCommand(name, { lua: checkScript().lua, numberOfKeys: numKeys });
    counts.add(numKeys);
  }
  return (redis as unknown as Record<string, CheckCommand>)[name] as CheckCommand;
}

/** Runs the check script: KEYS then ARGV exactly as lua/check.lua's header lists them. */
export async function runCheckScript(
  redis: RedisClient,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<number[]> {
  const reply = await commandFor(redis, keys.length).call(redis, ...keys, ...args);
  return reply.map((value) => Number(value));
}
