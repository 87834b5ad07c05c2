import "server-only";
import { Command } from "ioredis";
import type { RedisClient } from "@/lib/shared/redis/redis";
import { readOwnersScript } from "@/lib/check/limiter/script";
import type { RecordState } from "@/lib/control/limit-tree/readings";
import type { LogRead } from "@/lib/control/limit-tree/shape";
import { counterClient, withStore } from "@/lib/control/data/counters-store";

// The limit tree's counters: every owner key of a tenant (the tenant, its keys, some
// subjects) and its sliding logs in ONE script call (lua/read-owners.lua), never one read
// per node. Keys come from the tenant's own compiled shape (lib/limit-tree/shape.ts), so
// they all carry its hash tag: one Cluster slot, and no other tenant's key can be named.

export interface CounterRead {
  /** Redis time of the read, ms */
  now: number;
  /** owner key -> entry name -> its state */
  owners: Map<string, Map<string, RecordState>>;
  /** sliding-log key -> units admitted in its window */
  logs: Map<string, number>;
  readMs: number;
}

function num(value: unknown, what: string): number {
  const n = typeof value === "number" ? value : Number(value instanceof Buffer ? value.toString() : value);
  if (!Number.isFinite(n)) throw new Error(`read-owners: ${what} is not a number`);
  return n;
}

const RECORD_BYTES = 40;

/** An owner key's value: 40-byte records, an 8-character name and four little-endian doubles. */
export function decodeOwner(value: Buffer | null): Map<string, RecordState> {
  const records = new Map<string, RecordState>();
  if (value === null) return records;
  for (let at = 0; at + RECORD_BYTES <= value.length; at += RECORD_BYTES) {
    records.set(value.toString("latin1", at, at + 8), [
      value.readDoubleLE(at + 8),
      value.readDoubleLE(at + 16),
      value.readDoubleLE(at + 24),
      value.readDoubleLE(at + 32),
    ]);
  }
  return records;
}

function parse(
  reply: unknown,
  ownerKeys: readonly string[],
  logs: readonly LogRead[],
): Omit<CounterRead, "readMs"> {
  if (!Array.isArray(reply) || reply.length !== 1 + ownerKeys.length + logs.length) {
    throw new Error("read-owners: the reply does not have one item per key");
  }
  const items: unknown[] = reply;
  const owners = new Map<string, Map<string, RecordState>>();
  ownerKeys.forEach((key, i) => {
    const value = items[1 + i];
    if (value !== null && !(value instanceof Buffer))
      throw new Error("read-owners: an owner value is not bytes");
    owners.set(key, decodeOwner(value));
  });
  const units = new Map<string, number>();
  logs.forEach((log, i) => units.set(log.key, num(items[1 + ownerKeys.length + i], "log units")));
  return { now: num(items[0], "the time"), owners, logs: units };
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith("NOSCRIPT");
}

/** A script call answered as bytes (owner values are binary; integers stay numbers). */
function callForBytes(
  client: RedisClient,
  name: "evalsha" | "eval",
  args: (string | number)[],
): Promise<unknown> {
  // the prefix as ioredis adds it to its own commands' keys (REDIS_PREFIX, counterClient)
  const command = new Command(name, args, { replyEncoding: null, keyPrefix: client.options.keyPrefix });
  void client.sendCommand(command);
  return command.promise;
}

/** EVALSHA, and the text after NOSCRIPT (a restarted or flushed Redis). */
async function runForBytes(
  client: RedisClient,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  const script = readOwnersScript();
  try {
    return await callForBytes(client, "evalsha", [script.sha, keys.length, ...keys, ...args]);
  } catch (error) {
    if (!isNoScript(error)) throw error;
    return await callForBytes(client, "eval", [script.lua, keys.length, ...keys, ...args]);
  }
}

/** One read of the given owner keys and sliding logs of one tenant (`client`: the benchmark's). */
export async function readCounters(
  ownerKeys: readonly string[],
  logs: readonly LogRead[],
  client: RedisClient = counterClient(),
): Promise<CounterRead> {
  const started = performance.now();
  const reply = await withStore(() =>
    runForBytes(
      client,
      [...ownerKeys, ...logs.map((l) => l.key)],
      [ownerKeys.length, ...logs.map((l) => l.windowMs)],
    ),
  );
  return { ...parse(reply, ownerKeys, logs), readMs: performance.now() - started };
}
