// The limit tree's refresh for a tenant with 1,000 keys: npm run bench:limit-tree.
// What every 2 s poll of the chart costs beyond the usage page's own reads: the ONE counter
// read (lua/read-owners.lua over the tenant's and every key's owner key) and placing the
// numbers on the nodes; and, once per config version, deriving the tree's shape. The
// counters are made by the real limiter script first, so every key has records to decode.
// Uses REDIS_URL when set (under its own tenant id), otherwise a throwaway redis-server.
import { Redis } from "ioredis";
import type { CompiledLimit, CompiledTenant } from "@/lib/control/config/compile";
import type { LimitRule } from "@/lib/shared/limit-types";
import { startBenchRedis } from "./bench-redis";
import { freePort, stopAll } from "./processes";

await import(new URL("../server-only-hook.mjs", import.meta.url).href);
const { evaluate } = await import("@/lib/check/limiter/evaluate");
const { specOf } = await import("@/lib/check/limit-specs");
const { shapeOf } = await import("@/lib/control/limit-tree/shape");
const { plainInForce } = await import("@/lib/control/counters/limits-in-force");
const { readCounters } = await import("@/lib/control/limit-tree/limit-tree-counters");
const { tenantView } = await import("@/lib/control/limit-tree/views");
const { attribute } = await import("@/lib/control/limit-tree/attribution");
const { emptyTraffic } = await import("@/lib/control/limit-tree/traffic");

const KEYS = Number(process.env.BENCH_TREE_KEYS ?? 1_000);
const REFRESHES = Number(process.env.BENCH_TREE_REFRESHES ?? 200);
// The budget, in CPU so a loaded machine cannot blur it: per refresh at most 20 ms of the
// app process (decode, nodes, JSON) and 2 ms of Redis (the script holds Redis that long).
const BUDGET_APP_MS = 20;
const BUDGET_REDIS_MS = 2;
const TENANT_ID = `benchtree${Date.now().toString(36)}`;

function limit(
  id: string,
  by: CompiledLimit["by"],
  level: CompiledLimit["level"],
  rule: Partial<LimitRule>,
  route: string | null = null,
): CompiledLimit {
  const base: LimitRule = {
    algorithm: "fixed_window",
    limit: 1_000,
    windowMs: 60_000,
    burst: null,
    action: "reject",
    maxDelayMs: null,
    mode: "enforce",
    onStoreFailure: "open",
  };
  return {
    id,
    name: id.split(":").pop() ?? id,
    level,
    by,
    route,
    rule: { ...base, ...rule },
    provenance: [{ level, source: level, fields: ["limit"] }],
  };
}

/** plan + tenant limits, a per-key bucket and a per-key route limit for every key. */
function tenantOf(keys: number): CompiledTenant {
  const unrouted = [
    limit("p:pro:tenant-rpm", "tenant", "plan", { algorithm: "sliding_window", limit: 10_000_000 }),
    limit("t:tenant-cap", "tenant", "tenant", { limit: 10_000_000, windowMs: 3_600_000 }),
    limit("p:pro:key-rps", "key", "plan", {
      algorithm: "token_bucket",
      limit: 100,
      windowMs: 1_000,
      burst: 1_000,
    }),
  ];
  const routed = {
    "POST /v1/search": [
      limit(
        "r:global:POST /v1/search:search",
        "key",
        "route",
        { algorithm: "gcra", limit: 50, windowMs: 1_000, burst: 500 },
        "POST /v1/search",
      ),
    ],
  };
  const set = { unrouted, routed };
  const entries = Array.from(
    { length: keys },
    (_, i) => [`key-${i}`, { id: `kid${i}`, name: `key-${i}`, limits: null }] as const,
  );
  return {
    id: TENANT_ID,
    slug: "bench-tree",
    name: "bench",
    plan: "pro",
    status: "active",
    routes: [],
    limits: { unrouted: unrouted.filter((l) => l.by !== "key"), routed: {} },
    keyDefault: set,
    keys: Object.fromEntries(entries),
    keyNameById: Object.fromEntries(entries.map(([n, k]) => [k.id, n])),
    service: null,
  };
}

const stats = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return `median ${at(0.5).toFixed(2)} ms, p95 ${at(0.95).toFixed(2)} ms, max ${at(1).toFixed(2)} ms`;
};

/** Calls and µs of EVALSHA so far (INFO commandstats): Redis' own time in the script. */
async function scriptStats(client: Redis): Promise<{ calls: number; usec: number }> {
  const line =
    (await client.info("commandstats")).split("\n").find((l) => l.startsWith("cmdstat_evalsha:")) ?? "";
  return {
    calls: Number(/calls=(\d+)/.exec(line)?.[1] ?? 0),
    usec: Number(/usec=(\d+)/.exec(line)?.[1] ?? 0),
  };
}

let url = process.env.REDIS_URL;
if (!url) {
  const port = await freePort();
  await startBenchRedis(port);
  url = `redis://127.0.0.1:${port}`;
}
const redis = new Redis(url, { protocol: 2 });
try {
  const tenant = tenantOf(KEYS);
  const limits = [...tenant.keyDefault.unrouted, ...(tenant.keyDefault.routed["POST /v1/search"] ?? [])];
  // every key checked 1..20 times on the route, so every owner key holds three records
  for (const [i, key] of Object.values(tenant.keys).entries()) {
    const specs = limits.flatMap(
      (l) => specOf(l, { tenantId: TENANT_ID, keyId: key.id, subject: null }) ?? [],
    );
    await evaluate(redis, specs, { cost: 1 + (i % 20), dryRun: false });
  }
  const t0 = performance.now();
  const shape = shapeOf(plainInForce(tenant));
  const shapeMs = performance.now() - t0;
  const reads: number[] = [];
  const builds: number[] = [];
  let bytes = 0;
  // every key sent checks on the route: its route limits are on its chain
  const routesOf = new Map(Object.values(tenant.keys).map((k) => [k.id, new Set(["POST /v1/search"])]));
  const redisBefore = await scriptStats(redis);
  const cpuBefore = process.cpuUsage();
  for (let r = 0; r < REFRESHES; r++) {
    const counters = await readCounters(shape.ownerKeys, shape.logs, redis);
    const b0 = performance.now();
    const view = tenantView({
      tenant,
      shape,
      counters,
      rejections: emptyTraffic(),
      attributed: attribute(shape, []),
      admitted: emptyTraffic(),
      rangeMs: 15 * 60_000,
      routesOf,
      subjects: [],
      listOf: () => null,
    });
    bytes = JSON.stringify(view).length;
    builds.push(performance.now() - b0);
    reads.push(counters.readMs);
  }
  const cpu = process.cpuUsage(cpuBefore);
  const redisAfter = await scriptStats(redis);
  const redisUs = (redisAfter.usec - redisBefore.usec) / Math.max(1, redisAfter.calls - redisBefore.calls);
  const total = reads.map((ms, i) => ms + (builds[i] ?? 0));
  console.log(
    `limit tree, ${KEYS} keys, ${REFRESHES} refreshes (one counter read each, ${shape.ownerKeys.length} owner keys):`,
  );
  console.log(`  shape (once per config version): ${shapeMs.toFixed(2)} ms`);
  console.log(`  counter read (one script call):  ${stats(reads)}`);
  console.log(`  nodes from counters:             ${stats(builds)}`);
  console.log(`  refresh (read + nodes):          ${stats(total)}; answer ${bytes} bytes`);
  const appMs = (cpu.user + cpu.system) / 1_000 / REFRESHES;
  const redisMs = redisUs / 1_000;
  console.log(
    `  CPU per refresh:                 this process ${appMs.toFixed(2)} ms, Redis ${redisMs.toFixed(2)} ms in the script`,
  );
  const met = appMs <= BUDGET_APP_MS && redisMs <= BUDGET_REDIS_MS;
  console.log(
    `  ${met ? "met" : "MISSED"}: budget ${BUDGET_APP_MS} ms app CPU and ${BUDGET_REDIS_MS} ms Redis CPU per refresh`,
  );
} finally {
  const keys = await redis.keys(`{t:${TENANT_ID}}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
  await stopAll();
}
