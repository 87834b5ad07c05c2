import "server-only";
import { env } from "@/lib/env";
import { runScript } from "@/lib/limiter/ioredis-scripts";
import { scriptOf } from "@/lib/limiter/lua-files";
import { redis, type RedisClient } from "@/lib/redis";
import { configKeys } from "@/lib/shared/redis-keys";
import type { PublishedConfig } from "@/lib/config/published";

const publishScript = scriptOf("publish-config.lua");

/** Writes the version to Redis and announces it; false when Redis already had it or newer. */
export async function publishConfig(
  config: PublishedConfig,
  client: RedisClient = redis(),
): Promise<boolean> {
  const keys = configKeys(env().REDIS_PREFIX);
  const reply = await runScript(
    client,
    publishScript(),
    [keys.version, keys.snapshot],
    [String(config.version), JSON.stringify(config), keys.channel],
  );
  return reply === 1;
}

/** The version Redis holds now (0 when none: a fresh or flushed Redis). */
export async function publishedVersion(client: RedisClient = redis()): Promise<number> {
  const value = await client.get(configKeys(env().REDIS_PREFIX).version);
  return value === null ? 0 : Number(value);
}
