import "server-only";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Script } from "@/lib/shared/redis/script-client";

// Every Lua script lives in lua/ and is loaded one way: read once, sent as EVALSHA by its
// SHA-1, with the text again only after NOSCRIPT (lib/shared/redis/ioredis-scripts.ts,
// lib/limiter/lean-redis). lua/ is found from this module's own file, whatever the working
// directory: the nearest lua/ above it, which is the project's from the sources (tests,
// scripts), from the bundled front (.next/sluice/) and from the app's build (.next/server/).

let found: string | undefined;

/** The project's lua/ directory; throws when no directory above this module holds it. */
export function luaDir(): string {
  if (found) return found;
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, "lua");
    if (existsSync(join(candidate, "check.lua"))) return (found = candidate);
    if (dirname(dir) === dir) break;
  }
  throw new Error(`no lua/ directory with check.lua above ${start}`);
}

/**
 * One script from files of lua/ (or of another copy of it: the bench's A/B), joined in order
 * (Redis runs a script as a single chunk).
 */
export function readScript(files: readonly string[], dir: string = luaDir()): Script {
  const lua = files.map((file) => readFileSync(join(dir, file), "utf8")).join("\n");
  return { lua, sha: createHash("sha1").update(lua).digest("hex") };
}

/** A script of one file, read on first use and kept. */
export function scriptOf(file: string): () => Script {
  let script: Script | undefined;
  return () => (script ??= readScript([file]));
}
