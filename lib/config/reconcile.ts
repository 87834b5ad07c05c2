import "server-only";
import { latestPublished } from "@/lib/data/config-change";
import { publishConfig, publishedVersion } from "@/lib/config/publish";
import type { PublishedConfig } from "@/lib/config/published";
import type { RedisClient } from "@/lib/redis";
import { redis } from "@/lib/redis";

/**
 * Heals Redis from PostgreSQL: when Redis holds an older version than the newest one
 * recorded (a publish that failed, a flushed or restarted Redis), publish the newest.
 * Returns the version Redis holds afterwards.
 */
export async function republishIfBehind(client: RedisClient = redis()): Promise<number> {
  const [inRedis, latest] = await Promise.all([publishedVersion(client), latestPublished()]);
  if (!latest || latest.version <= inRedis) return inRedis;
  await publishConfig(latest.snapshot as PublishedConfig, client);
  return latest.version;
}
