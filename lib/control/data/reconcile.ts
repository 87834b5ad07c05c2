import "server-only";
import { publishParts, publishWhole, publishedVersion, versionsAhead } from "@/lib/control/config/publish";
import { splitPublished } from "@/lib/check/published/parts";
import type { PublishedConfig } from "@/lib/check/published/published";
import type { RedisClient } from "@/lib/shared/redis/redis";
import { redis } from "@/lib/shared/redis/redis";
import { latestWholeVersion } from "@/lib/control/data/config-versions";
import {
  livePartsAt,
  newestVersion,
  partsOfVersion,
  versionKind,
  type VersionedPart,
} from "@/lib/control/data/config-parts/part-reads";

/** Past this many versions missing, one whole publish costs less than replaying each. */
const MOST_REPLAYED = 50;

/**
 * Heals Redis from PostgreSQL: versions Redis missed (a publish that failed while it was
 * down) are republished part by part; a fresh or flushed Redis, or one far behind, gets the
 * whole. Cheap when nothing is missing: two small reads, which is what every server's
 * periodic heal costs (it must never read the configuration itself to find it current).
 * Returns the watermark Redis holds afterwards.
 */
export async function republishIfBehind(client: RedisClient = redis()): Promise<number> {
  const [mark, newest] = await Promise.all([publishedVersion(client), newestVersion()]);
  if (newest <= mark) return mark;
  const ahead = new Set(await versionsAhead(client));
  const missing: number[] = [];
  for (let version = mark + 1; version <= newest; version++) if (!ahead.has(version)) missing.push(version);
  if (mark === 0 || missing.length > MOST_REPLAYED) return publishWholeAt(newest, client);
  for (const version of missing) {
    if ((await versionKind(version)) !== "parts") return publishWholeAt(newest, client);
    const outcome = await publishParts(version, await partsOfVersion(version), client);
    if (outcome === "needs-whole") return publishWholeAt(newest, client);
  }
  return newest;
}

/** Installs the whole configuration as of `version` (the newest parts), in chunks. */
export async function publishWholeAt(version: number, client: RedisClient = redis()): Promise<number> {
  await publishWhole(version, await wholeAt(version), client);
  return version;
}

/** Every live part as of `version`: from the parts, or cut from a version stored whole. */
async function wholeAt(version: number): Promise<VersionedPart[]> {
  if ((await versionKind(version)) === "parts") return livePartsAt();
  const whole = await latestWholeVersion(version);
  if (whole === null) return [];
  return [...splitPublished(whole as PublishedConfig)].map(([scope, part]) => ({
    scope,
    version,
    json: JSON.stringify(part),
  }));
}
