import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRows } from "@/lib/usage/read/rows";
import { closeRedis } from "@/lib/shared/redis/redis";
import { readDemand } from "@/lib/control/replay/read-demand";
import { pairsKey, secondsKey } from "@/lib/usage/keys";
import { connect, contextAt, HOUR, NS, recorderFor, RUN, TestClock } from "./setup";

// The pairs layout (lib/usage/pair-series.ts) against real Redis: a minute holds one field
// per (key, route, outcome) whatever the number of seconds it was seen in, two processes
// and several flushes of one second add up, and a minute written in the older layout (one
// field per second) is still read beside it. Read back through the usage rows and the
// replay's demand, the two readers of these hashes.

const client = connect();
const tenantId = `${RUN}-pairs`;
const minute = Math.floor(Date.now() / 60_000) - 5;
const at = (second: number, ms = 0): number => minute * 60_000 + second * 1_000 + ms;
const ROUTE = "GET /v1/items/:id";
const KEYS = Array.from({ length: 10 }, (_, i) => `key${i}`);

beforeAll(async () => {
  await client.ping(); // a recorder keeps its counts while its connection is still opening
  const clock = new TestClock(at(0));
  const [a, b] = [recorderFor(client, clock), recorderFor(client, clock)];
  for (const second of [3, 4, 5]) {
    // every key in every second, from process a; key0 twice more from b, in two flushes
    clock.ms = at(second, 100);
    for (const keyId of KEYS) a.record({ tenantId, keyId, route: ROUTE, outcome: "allowed", subject: null });
    b.record({ tenantId, keyId: "key0", route: ROUTE, outcome: "allowed", subject: null });
    await b.flush();
    clock.ms = at(second, 900);
    b.record({ tenantId, keyId: "key0", route: ROUTE, outcome: "allowed", subject: null });
    await Promise.all([a.flush(), b.flush()]);
  }
  b.record({ tenantId, keyId: "key1", route: ROUTE, outcome: "rejected", subject: null });
  await b.flush();
  await Promise.all([a.stop(), b.stop()]);
  expect(a.stats().droppedEvents + b.stats().droppedEvents).toBe(0);
  // the older layout, as a server of the previous version wrote it: second 7, key0, 4 checks
  await client.hincrby(secondsKey(NS, tenantId, minute), `7|key0|${ROUTE}|a`, 4);
  await client.expire(secondsKey(NS, tenantId, minute), 600);
});

afterAll(async () => {
  client.disconnect();
  await closeRedis();
});

describe("usage counts in the pairs layout", () => {
  it("keeps one field per (key, route, outcome) of a minute, not one per second", async () => {
    expect(await client.hlen(pairsKey(NS, tenantId, minute))).toBe(KEYS.length + 1);
    const key0 = await client.hget(pairsKey(NS, tenantId, minute), `key0|${ROUTE}|a`);
    // a's entry and b's two flushes of each second, each appended
    expect(key0?.split(",").sort()).toEqual(["3:1", "3:1", "3:1", "4:1", "4:1", "4:1", "5:1", "5:1", "5:1"]);
    expect(await client.ttl(pairsKey(NS, tenantId, minute))).toBeGreaterThan(HOUR / 1_000);
  });

  it("reads per-second rows that add up both processes, every flush and the older layout", async () => {
    const rows = await readRows(tenantId, at(0), at(60), "seconds", contextAt(client, Date.now()));
    const of = (keyId: string, second: number) =>
      rows.find((r) => r.keyId === keyId && r.t === at(second) && r.route === ROUTE);
    expect([3, 4, 5, 7].map((s) => of("key0", s)?.allowed)).toEqual([3, 3, 3, 4]);
    expect([3, 4, 5].map((s) => of("key9", s)?.allowed)).toEqual([1, 1, 1]);
    expect(of("key1", 5)).toMatchObject({ allowed: 1, rejected: 1 });
    const total = rows.reduce((sum, r) => sum + r.allowed + r.rejected, 0);
    expect(total).toBe(3 * (KEYS.length + 2) + 1 + 4);
  });

  it("gives the replay the same demand per key and second", async () => {
    const read = await readDemand(client, NS, {
      tenantId,
      by: "key",
      fromMinute: minute,
      toMinute: minute + 1,
    });
    const of = (owner: string, second: number) =>
      read.demand
        .filter((d) => d.owner === owner && d.second === minute * 60 + second)
        .reduce((sum, d) => sum + d.count, 0);
    expect([3, 4, 5, 7].map((s) => of("key0", s))).toEqual([3, 3, 3, 4]);
    expect(of("key1", 5)).toBe(2);
    const only = await readDemand(client, NS, {
      tenantId,
      by: "key",
      keyId: "key9",
      fromMinute: minute,
      toMinute: minute + 1,
    });
    expect(only.demand.map((d) => [d.owner, d.count])).toEqual([
      ["key9", 1],
      ["key9", 1],
      ["key9", 1],
    ]);
  });

  it("stops the replay's read, newest minute first, at its bound on counts read", async () => {
    const filter = { tenantId, by: "key" as const, fromMinute: minute - 1, toMinute: minute + 2 };
    expect((await readDemand(client, NS, filter)).minutesSkipped).toBe(0);
    // the newest minute is empty, this one holds 11 fields but more than 20 counts a second
    const capped = await readDemand(client, NS, filter, 20);
    expect(capped.fieldsRead).toBe(KEYS.length + 2);
    expect(capped.minutesSkipped).toBe(1);
    expect(capped.demand.some((d) => d.second === minute * 60 + 3)).toBe(true);
    // the fields alone past the bound: only the empty newest minute is read
    expect((await readDemand(client, NS, filter, 5)).minutesSkipped).toBe(2);
  });
});
