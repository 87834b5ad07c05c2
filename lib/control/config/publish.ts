import "server-only";
import { randomUUID } from "node:crypto";
import { env } from "@/lib/shared/env";
import { runScript } from "@/lib/shared/redis/ioredis-scripts";
import { scriptOf } from "@/lib/shared/redis/lua-files";
import { redis, type RedisClient } from "@/lib/shared/redis/redis";
import { configKeys, publishKeys, stagingKey } from "@/lib/shared/redis/redis-keys";

// Config versions reach Redis in parts (lib/config/parts/): a change publishes the parts it
// changed (publish-parts.lua); a fresh, flushed or far-behind Redis gets the whole, staged in
// chunks and swapped in at once (publish-whole.lua). Servers read them back with
// lib/check/config-reader.ts.

const partsScript = scriptOf("publish-parts.lua");
const wholeScript = scriptOf("publish-whole.lua");

/** A part as stored and sent: its JSON, or null when the version removed it. */
export interface PartText {
  scope: string;
  json: string | null;
}

/** How many change-log entries Redis keeps: a server further behind reloads the whole. */
const LOG_LENGTH = 1_000;
/** A change of more parts is logged as "reload everything" (a bulk change of most tenants). */
const MOST_SCOPES_LOGGED = 2_000;
/** Fields written per command while staging a whole. */
const STAGE_CHUNK = 500;

export type PublishOutcome = "published" | "had-it" | "needs-whole";

/** Publishes one version's changed parts; "needs-whole" when Redis holds no whole yet. */
export async function publishParts(
  version: number,
  parts: readonly PartText[],
  client: RedisClient = redis(),
): Promise<PublishOutcome> {
  const keys = configKeys(env().REDIS_PREFIX);
  const args: string[] = [String(version), keys.channel, String(LOG_LENGTH), String(MOST_SCOPES_LOGGED)];
  for (const part of parts) args.push(part.scope, part.json ?? "");
  const reply = await runScript(client, partsScript(), publishKeys(keys), args);
  return reply === 1 ? "published" : reply === -1 ? "needs-whole" : "had-it";
}

/** Installs a whole configuration at `version`: every live part, with the version that wrote it. */
export async function publishWhole(
  version: number,
  parts: ReadonlyArray<PartText & { version: number }>,
  client: RedisClient = redis(),
): Promise<boolean> {
  const prefix = env().REDIS_PREFIX;
  const keys = configKeys(prefix);
  const id = randomUUID();
  const staged = stagingKey(prefix, id);
  const stagedVersions = stagingKey(prefix, `${id}:versions`);
  const live = parts.filter((part) => part.json !== null);
  for (let start = 0; start < live.length; start += STAGE_CHUNK) {
    const chunk = live.slice(start, start + STAGE_CHUNK);
    // expire: a publisher that dies midway leaves nothing behind for long
    await client
      .multi()
      .hset(staged, ...chunk.flatMap((part) => [part.scope, part.json ?? ""]))
      .hset(stagedVersions, ...chunk.flatMap((part) => [part.scope, String(part.version)]))
      .pexpire(staged, 120_000)
      .pexpire(stagedVersions, 120_000)
      .exec();
  }
  const reply = await runScript(
    client,
    wholeScript(),
    [...publishKeys(keys), staged, stagedVersions],
    [String(version), keys.channel, randomUUID()],
  );
  return reply === 1;
}

/** The watermark Redis holds now (0 when none: a fresh or flushed Redis). */
export async function publishedVersion(client: RedisClient = redis()): Promise<number> {
  const keys = configKeys(env().REDIS_PREFIX);
  const [version, epoch] = await Promise.all([client.get(keys.version), client.get(keys.epoch)]);
  return version === null || epoch === null ? 0 : Number(version);
}

/** Versions above the watermark Redis applied out of order. */
export async function versionsAhead(client: RedisClient = redis()): Promise<number[]> {
  const members = await client.zrange(configKeys(env().REDIS_PREFIX).ahead, "0", "-1");
  return members.map(Number);
}
