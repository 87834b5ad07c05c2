import "server-only";
import { Cluster } from "ioredis";
import type { RedisClient } from "@/lib/shared/redis/redis";
import type { HotClient, ReplyCallback, Script } from "@/lib/shared/redis/script-client";

// Scripts through ioredis (a Redis Cluster on the check path; evaluate() and the admin
// calls everywhere): EVALSHA, and after NOSCRIPT (SCRIPT FLUSH, a restarted Redis) the text
// once with EVAL. Plain commands, so ioredis routes them on a Cluster by their first key.

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith("NOSCRIPT");
}

export async function runScript(
  redis: RedisClient,
  script: Script,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  try {
    return await redis.evalsha(script.sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!isNoScript(error)) throw error;
    return redis.eval(script.lua, keys.length, ...keys, ...args);
  }
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/**
 * SCRIPT LOAD on every master (each of a Cluster's), so calls do not meet NOSCRIPT, whose
 * retry would let later calls overtake earlier ones. A master added later still gets the
 * text at its first NOSCRIPT.
 */
export async function loadScripts(redis: RedisClient, scripts: readonly Script[]): Promise<void> {
  const masters = redis instanceof Cluster ? redis.nodes("master") : [redis];
  await Promise.all(masters.flatMap((node) => scripts.map((script) => node.script("LOAD", script.lua))));
}

/** The hot-path client over ioredis; `scripts` are loaded on every (re)connection. */
export function ioredisScripts(redis: RedisClient, scripts: readonly Script[] = []): HotClient {
  if (scripts.length > 0) {
    const load = (): void => void loadScripts(redis, scripts).catch(() => undefined);
    redis.on("ready", load);
    if (redis.status === "ready") load();
  }
  return {
    get ready() {
      return redis.status === "ready";
    },
    run(script: Script, keys: readonly string[], args: readonly (string | number)[], done: ReplyCallback) {
      runScript(redis, script, keys, args).then(
        (reply) => done(null, reply),
        (error: unknown) => done(asError(error)),
      );
    },
    onReady(listener: () => void) {
      redis.on("ready", listener);
    },
    disconnect() {
      redis.disconnect();
    },
    ping(done: ReplyCallback) {
      redis.ping().then(
        (reply) => done(null, reply),
        (error: unknown) => done(asError(error)),
      );
    },
  };
}
