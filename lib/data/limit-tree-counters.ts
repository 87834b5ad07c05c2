import "server-only";
import { runScript } from "@/lib/limiter/ioredis-scripts";
import { readOwnersScript } from "@/lib/limiter/script";
import type { RecordState } from "@/lib/limit-tree/readings";
import type { LogRead } from "@/lib/limit-tree/shape";
import { counterClient, withStore } from "@/lib/data/counters-store";

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
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isFinite(n)) throw new Error(`read-owners: ${what} is not a number`);
  return n;
}

function parse(reply: unknown, ownerKeys: readonly string[], logs: readonly LogRead[]): Omit<CounterRead, "readMs"> {
  if (!Array.isArray(reply)) throw new Error("read-owners: the reply is not an array");
  const items: unknown[] = reply;
  let at = 0;
  const next = (what: string): unknown => {
    if (at >= items.length) throw new Error(`read-owners: the reply ends before ${what}`);
    return items[at++];
  };
  const now = num(next("the time"), "the time");
  const owners = new Map<string, Map<string, RecordState>>();
  for (const key of ownerKeys) {
    const n = num(next("a record count"), "a record count");
    const records = new Map<string, RecordState>();
    for (let r = 0; r < n; r++) {
      const name = String(next("an entry name"));
      const state: RecordState = [num(next("s1"), "s1"), num(next("s2"), "s2"), num(next("s3"), "s3"), num(next("end"), "end")];
      records.set(name, state);
    }
    owners.set(key, records);
  }
  const units = new Map<string, number>();
  for (const log of logs) units.set(log.key, num(next("log units"), "log units"));
  return { now, owners, logs: units };
}

/** One read of the given owner keys and sliding logs of one tenant. */
export async function readCounters(ownerKeys: readonly string[], logs: readonly LogRead[]): Promise<CounterRead> {
  const started = performance.now();
  const reply = await withStore(() =>
    runScript(
      counterClient(),
      readOwnersScript(),
      [...ownerKeys, ...logs.map((l) => l.key)],
      [ownerKeys.length, ...logs.map((l) => l.windowMs)],
    ),
  );
  return { ...parse(reply, ownerKeys, logs), readMs: performance.now() - started };
}
