// What usage recording costs on varied traffic (docs/deployment.md, "Usage data in Redis"):
// the bench's realistic mix (13,000 checks a second over 10 tenants, 1,000 keys by Zipf, 50
// routes, 100,000 subjects) through a real UsageRecorder, a simulated second at a time with
// one flush each, into its own Redis (or REDIS_URL). Prints the recorder's CPU per check
// (record and flush, main thread), Redis' CPU for the flushes, the Redis memory one complete
// minute of usage takes, and what reading the busiest tenant-minute costs Redis.
// `npm run bench:usage [seconds] [tenants]` (default 62: one whole minute and its neighbours;
// 10 tenants, each with its keys; more than the 1,000 keys spreads the checks over tenants
// at random, so each flush writes thousands of tenants: the installation-sized case).
import { readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Redis } from "ioredis";
import { startBenchRedis } from "./bench-redis";
import { freePort, stopAll } from "./processes";
import { mb } from "./rss";
import { zipf } from "./zipf";
import type { UsageEvent } from "@/lib/usage/types";

await import(new URL("../server-only-hook.mjs", import.meta.url).href);
const { UsageRecorder } = await import("@/lib/usage/record/recorder");
const { pairsKey } = await import("@/lib/usage/keys");

const PER_SECOND = 13_000;
const SECONDS = Number(process.argv[2] ?? 62);
const NS = "bench:usage:";
const TENANTS = Number(process.argv[3] ?? 10);
const tenants = Array.from({ length: TENANTS }, (_, t) => `c${t}`.padEnd(25, "t"));
const keys = Array.from({ length: 1_000 }, (_, k) => `c${k}`.padEnd(25, "k"));
const routes = Array.from({ length: 50 }, (_, r) => `GET /v1/res${r}/:id`);
const [keyRank, subjectRank] = [zipf(keys.length), zipf(100_000)];

/** The main thread's CPU so far, µs (schedstat: GC helper threads are not in it). */
const mainMicros = (): number =>
  Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1_000;

async function info(client: Redis, section: string, field: string): Promise<number> {
  return Number(new RegExp(`^${field}:([0-9.]+)`, "m").exec(await client.info(section))?.[1]);
}

const redisCpuMicros = async (client: Redis): Promise<number> =>
  ((await info(client, "cpu", "used_cpu_user")) + (await info(client, "cpu", "used_cpu_sys"))) * 1e6;

/** A second of the mix, subjects parsed from JSON as /api/check gets them (fresh strings). */
function second(): UsageEvent[] {
  return Array.from({ length: PER_SECOND }, () => {
    const k = keyRank() - 1;
    const { subject } = JSON.parse(`{"subject":"u${subjectRank()}"}`) as { subject: string };
    const route = routes[Math.floor(Math.random() * routes.length)] ?? null;
    return {
      tenantId:
        (tenants.length <= keys.length
          ? tenants[k % tenants.length]
          : tenants[Math.floor(Math.random() * tenants.length)]) ?? "",
      keyId: keys[k] ?? null,
      route,
      outcome: "allowed",
      subject,
    };
  });
}

let url = process.env.REDIS_URL;
if (!url) {
  const port = await freePort();
  await startBenchRedis(port);
  url = `redis://127.0.0.1:${port}`;
}
const [client, probe] = [new Redis(url, { protocol: 2 }), new Redis(url, { protocol: 2 })];
const start = Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000;
let now = start;
const recorder = new UsageRecorder({
  redis: () => client,
  ns: NS,
  enabled: true,
  secondsRetentionMs: 3_600_000,
  clock: () => now,
});
try {
  await client.ping();
  const cost = { record: 0, flush: 0, redis: 0, checks: 0, longestFlush: 0 };
  // how long a flush holds the event loop at a stretch: what a check arriving then waits
  const blocked = monitorEventLoopDelay({ resolution: 1 });
  for (let s = 0; s < SECONDS; s++) {
    const events = second();
    const redis0 = await redisCpuMicros(probe);
    const cpu0 = mainMicros();
    for (let i = 0; i < PER_SECOND; i++) {
      now = start + s * 1_000 + Math.floor((i * 1_000) / PER_SECOND);
      recorder.record(events[i] as UsageEvent);
    }
    const cpu1 = mainMicros();
    if (s >= 3) blocked.enable();
    await recorder.flush();
    blocked.disable();
    const [cpu2, redis1] = [mainMicros(), await redisCpuMicros(probe)];
    if (s < 3) continue; // JIT warm-up
    Object.assign(cost, {
      record: cost.record + cpu1 - cpu0,
      flush: cost.flush + cpu2 - cpu1,
      redis: cost.redis + redis1 - redis0,
      checks: cost.checks + PER_SECOND,
      longestFlush: Math.max(cost.longestFlush, cpu2 - cpu1),
    });
  }
  await recorder.stop();
  const perCheck = (us: number): string => `${(us / cost.checks).toFixed(2)} µs`;
  console.log(
    `usage recording of the realistic mix, ${PER_SECOND} checks/s over ${TENANTS} tenants for ${SECONDS} s:`,
  );
  console.log(
    `  CPU per check: record ${perCheck(cost.record)}, flush ${perCheck(cost.flush)}, Redis ${perCheck(cost.redis)}; the costliest flush ${(cost.longestFlush / 1_000).toFixed(1)} ms of this thread, holding the event loop ${(blocked.max / 1e6).toFixed(1)} ms at most`,
  );
  // the first complete minute: its usage hashes, and reading the busiest of them
  const minute = start / 60_000;
  let [bytes, fields, busiest, busiestFields] = [0, 0, "", 0];
  for (const tenant of tenants) {
    const key = pairsKey(NS, tenant, minute);
    const size = await probe.hlen(key);
    bytes += Number(await probe.call("MEMORY", "USAGE", key, "SAMPLES", "0"));
    fields += size;
    if (size > busiestFields) [busiest, busiestFields] = [key, size];
  }
  console.log(
    `  Redis memory of one minute's counts: ${mb(bytes)} in ${fields} fields (${tenants.length} tenants)`,
  );
  await probe.config("RESETSTAT");
  for (let i = 0; i < 5; i++) await probe.hgetall(busiest);
  const stats = (await probe.info("commandstats")).split("\n").find((l) => l.startsWith("cmdstat_hgetall:"));
  const usec = Number(/usec_per_call=([0-9.]+)/.exec(stats ?? "")?.[1]);
  console.log(
    `  reading the busiest tenant-minute (${busiestFields} fields): ${(usec / 1_000).toFixed(1)} ms of Redis`,
  );
} finally {
  const left = await probe.keys(`${NS}*`);
  // in slices: thousands of tenants leave more keys than one call's arguments may hold
  for (let i = 0; i < left.length; i += 1_000) await probe.del(...left.slice(i, i + 1_000));
  client.disconnect();
  probe.disconnect();
  await stopAll();
}
