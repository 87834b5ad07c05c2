import "server-only";
import { z } from "zod";
import { runScript } from "@/lib/shared/redis/ioredis-scripts";
import { scriptOf } from "@/lib/shared/redis/lua-files";
import { parsePart, type PartChange } from "@/lib/check/published/parts";
import type { RedisClient } from "@/lib/shared/redis/redis";
import type { ConfigKeys } from "@/lib/shared/redis/redis-keys";

// Reads the published configuration from Redis for a server (config-holder.ts): the parts
// changed since the publish sequence it applied (read-config-changes.lua), or the whole, read
// in chunks so that no single reply is the size of the installation.

const changesScript = scriptOf("read-config-changes.lua");

export interface Position {
  /** the whole configuration's epoch ("" before any) */
  epoch: string;
  /** the publish sequence applied */
  seq: number;
}

export type ChangesReply =
  | { mode: "none" }
  | { mode: "whole"; epoch: string }
  | { mode: "parts"; epoch: string; mark: number; seq: number; changes: PartChange[] };

const replySchema = z.array(z.string()).min(4);

export async function readChanges(
  client: RedisClient,
  keys: ConfigKeys,
  from: Position,
): Promise<ChangesReply> {
  const raw = await runScript(
    client,
    changesScript(),
    [keys.version, keys.parts, keys.log, keys.seq, keys.epoch],
    [from.epoch, String(from.seq)],
  );
  const [epoch = "", mark = "0", seq = "0", mode, ...pairs] = replySchema.parse(raw);
  if (mode === "none") return { mode: "none" };
  if (mode === "whole") return { mode: "whole", epoch };
  const changes: PartChange[] = [];
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const json = pairs[i + 1] ?? "";
    changes.push([pairs[i] ?? "", json === "" ? null : parsePart(json)]);
  }
  return { mode: "parts", epoch, mark: Number(mark), seq: Number(seq), changes };
}

export interface WholeHead extends Position {
  mark: number;
}

/** Where the whole stands now: read before scanning, then caught up with readChanges. */
export async function readHead(client: RedisClient, keys: ConfigKeys): Promise<WholeHead | null> {
  const [epoch, seq, mark] = await client.mget(keys.epoch, keys.seq, keys.version);
  if (!epoch) return null;
  return { epoch, seq: Number(seq ?? 0), mark: Number(mark ?? 0) };
}

/** Every part, a chunk at a time (HSCAN: a part changed meanwhile may come twice or stale). */
export async function* scanParts(client: RedisClient, keys: ConfigKeys): AsyncGenerator<PartChange[]> {
  let cursor = "0";
  do {
    const [next, flat] = await client.hscan(keys.parts, cursor, "COUNT", 500);
    cursor = next;
    const chunk: PartChange[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) chunk.push([flat[i] ?? "", parsePart(flat[i + 1] ?? "")]);
    yield chunk;
  } while (cursor !== "0");
}
