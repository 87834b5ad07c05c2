// Limiter benchmark: npm run bench:limiter (tsx scripts/bench/limiter.ts).
// In one run against one Redis: evaluate() with 1 and 3 limits per check (and 3 with a refund of
// each check through the adjustment script, POST /api/check/adjust's) through ioredis with
// auto-pipelining, beside redis-benchmark's plain INCR and EVALSHA of the same script (50
// clients), and Redis memory per idle identifier for each algorithm. Uses REDIS_URL when set
// (under its own tenant ids), otherwise starts a throwaway redis-server and stops it.
import { spawn, execFile } from "node:child_process";
import { createServer } from "node:net";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import type { LimitSpec } from "@/lib/check/limiter/types";
import { ALGORITHMS, type Algorithm, type LimitRule } from "@/lib/shared/limit-types";

// lib/check/limiter modules import "server-only", which throws outside Next: register the hook
// before loading them, so the plain `tsx scripts/bench/limiter.ts` works too.
await import(new URL("../server-only-hook.mjs", import.meta.url).href);
const { evaluate, buildCall } = await import("@/lib/check/limiter/evaluate");
const { checkScript } = await import("@/lib/check/limiter/script");
const { limitKey } = await import("@/lib/check/limiter/keys");
const { specArgs } = await import("@/lib/check/limiter/spec-args");
const { ticketOf } = await import("@/lib/check/adjust/ticket");
const { evaluateAdjust } = await import("@/lib/check/adjust/adjust-call");
const { releaseLease } = await import("@/lib/check/limiter/release");
const { newLeaseId } = await import("@/lib/check/limiter/lease-id");

const run = promisify(execFile);
const CHECKS = Number(process.env.BENCH_CHECKS ?? 60_000);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 200);
const IDENTITIES = 1_000;
const TENANT = `bench${Date.now().toString(36)}`;

function rule(algorithm: Algorithm, limit: number, windowMs: number, burst: number | null = null): LimitRule {
  const base = { action: "reject", maxDelayMs: null, mode: "enforce", onStoreFailure: "open" } as const;
  return { ...base, algorithm, limit, windowMs, burst };
}

// Rules are built once, as the config snapshot holds them. Bursts far above the load keep
// every check admitted (the writing path) and every identity's state alive during the run,
// as for a busy caller; an idle identity's state expires, and its next check re-creates it.
const KEY_RPS = rule("gcra", 100, 1_000, 1_000_000);
const ROUTE = rule("token_bucket", 100, 1_000, 1_000_000);
const TENANT_RPM = rule("sliding_window", 100_000_000, 60_000);
const oneLimit = (i: number): LimitSpec[] => [
  { id: "key-rps", tenantId: TENANT, identity: `k:${i}`, rule: KEY_RPS },
];
const threeLimits = (i: number): LimitSpec[] => [
  ...oneLimit(i),
  { id: "route", tenantId: TENANT, identity: `k:${i}|POST /v1/search`, rule: ROUTE },
  { id: "tenant-rpm", tenantId: TENANT, identity: "t", rule: TENANT_RPM },
];

// A concurrency limit beside the key's rate limit, with room for every check in flight
// (the admitting path: a lease taken, then released).
const IN_FLIGHT_LIMIT = rule("concurrency", 1_000_000, 60_000);
const withLease = (i: number): LimitSpec[] => [
  ...oneLimit(i),
  { id: "in-flight", tenantId: TENANT, identity: `k:${i}`, rule: IN_FLIGHT_LIMIT },
];

/** Checks per second that take a lease and release it when "served" (two calls each). */
async function leaseRate(redis: Redis): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next < CHECKS) {
      const limits = withLease(next++ % IDENTITIES);
      const lease = newLeaseId();
      const decision = await evaluate(redis, limits, { cost: 1, dryRun: false, lease });
      if (decision.allowed) await releaseLease(redis, limits, lease);
    }
  };
  await Promise.all(Array.from({ length: 50 }, worker));
  next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return CHECKS / (Number(process.hrtime.bigint() - start) / 1e9);
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function startRedis(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    {
      stdio: "ignore",
    },
  );
  const probe = new Redis({ port, lazyConnect: true, retryStrategy: () => 50 });
  probe.on("error", () => undefined); // refused until the server listens
  for (let i = 0; i < 100 && probe.status !== "ready"; i++) {
    await probe.connect().catch(() => new Promise((resolve) => setTimeout(resolve, 50)));
  }
  probe.disconnect();
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill("SIGTERM") };
}

async function evaluateRate(redis: Redis, limits: (i: number) => LimitSpec[]): Promise<number> {
  return checksRate((i) => evaluate(redis, limits(i % IDENTITIES), { cost: 1, dryRun: false }));
}

/** A check of cost 2, then its refund of 1 (POST /api/check/adjust's script): the pair's rate. */
async function adjustedRate(redis: Redis, limits: (i: number) => LimitSpec[]): Promise<number> {
  let round = 0;
  return checksRate(async (i) => {
    if (i === 0) round++;
    const specs = limits(i % IDENTITIES);
    const decision = await evaluate(redis, specs, { cost: 2, dryRun: false });
    const consumed = (j: number) => decision.limits[j]?.consumed === true;
    const ticket = ticketOf(TENANT, Date.now(), 2, specs.map(limitKey), specs.map(specArgs), consumed);
    if (ticket === null) throw new Error("bench: a check consumed nothing");
    await evaluateAdjust(redis, ticket, `r${round}c${i}`, { amount: -1, idempotencyKey: "" });
  });
}

async function checksRate(check: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next < CHECKS) await check(next++);
  };
  await Promise.all(Array.from({ length: 50 }, worker)); // warm up: loads the script per connection
  next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return CHECKS / (Number(process.hrtime.bigint() - start) / 1e9);
}

async function redisBenchmark(url: string, command: string[]): Promise<number> {
  const { hostname, port } = new URL(url);
  const args = [
    "-h",
    hostname,
    "-p",
    port || "6379",
    "-n",
    String(CHECKS),
    "-c",
    "50",
    "-r",
    String(IDENTITIES),
  ];
  const { stdout } = await run("redis-benchmark", [...args, "-q", ...command], { maxBuffer: 1 << 24 });
  const match = /([\d.]+) requests per second/.exec(stdout.replace(/\r/g, "\n"));
  if (!match) throw new Error(`cannot read redis-benchmark output: ${stdout}`);
  return Number(match[1]);
}

/** EVALSHA of the check script as evaluate() would send it, key per __rand_int__. */
function evalshaCommand(limits: LimitSpec[]): string[] {
  const { keys, args } = buildCall(limits, { cost: 1, dryRun: false });
  const randomKeys = keys.map((key) => key.replace("k%3A0", "k%3A__rand_int__"));
  return ["EVALSHA", checkScript().sha, String(keys.length), ...randomKeys, ...args.map(String)];
}

async function bytesPerIdentifier(
  redis: Redis,
  algorithm: Algorithm,
): Promise<{ bytes: number; key: string }> {
  let total = 0;
  let key = "";
  const n = 200;
  for (let i = 0; i < n; i++) {
    const spec = {
      id: "key-rps",
      tenantId: "cm3k9x2ab0001",
      identity: `k:cm3k9x2ab${1000 + i}`,
      rule: rule(algorithm, 100, 3_600_000),
    };
    await evaluate(redis, [spec], { cost: 1, dryRun: false });
    key = limitKey(spec);
    total += Number(await redis.call("MEMORY", "USAGE", key, "SAMPLES", "0"));
    await redis.del(key);
  }
  return { bytes: Math.round(total / n), key };
}

/** Redis' own time per call of a command during a phase (INFO commandstats), in µs. */
async function serverMicros(redis: Redis, command: string): Promise<number> {
  const info = await redis.info("commandstats");
  return Number(new RegExp(`cmdstat_${command}:.*usec_per_call=([\\d.]+)`).exec(info)?.[1] ?? NaN);
}

const own = process.env.REDIS_URL ? null : await startRedis();
const url = process.env.REDIS_URL ?? own!.url;
const redis = new Redis(url, { protocol: 2, enableAutoPipelining: true });
try {
  await redis.script("LOAD", checkScript().lua);
  const phases: Array<[string, string, () => Promise<number>]> = [
    ["redis-benchmark INCR", "incr", () => redisBenchmark(url, ["INCR", `{t:${TENANT}}:incr:__rand_int__`])],
    ["redis-benchmark EVALSHA, 1 limit", "evalsha", () => redisBenchmark(url, evalshaCommand(oneLimit(0)))],
    [
      "redis-benchmark EVALSHA, 3 limits",
      "evalsha",
      () => redisBenchmark(url, evalshaCommand(threeLimits(0))),
    ],
    ["evaluate(), 1 limit", "evalsha", () => evaluateRate(redis, oneLimit)],
    ["evaluate(), 3 limits", "evalsha", () => evaluateRate(redis, threeLimits)],
    // the same checks with an adjustment each (a refund): checks/s, Redis µs per script call
    ["evaluate() + adjust, 3 limits", "evalsha", () => adjustedRate(redis, threeLimits)],
    // concurrency limits: the same check with a lease taken (the check alone), then taken
    // and released (two script calls per request); Redis µs are per EVALSHA
    ["evaluate(), 1 limit + concurrency (check only)", "evalsha", () => evaluateRate(redis, withLease)],
    ["evaluate(), 1 limit + concurrency (check + release)", "evalsha", () => leaseRate(redis)],
    ["evaluate(), 1 limit (again, same run)", "evalsha", () => evaluateRate(redis, oneLimit)],
  ];
  const rows: Array<[string, number, number]> = [];
  for (const [name, command, measure] of phases) {
    await redis.config("RESETSTAT");
    const rate = await measure();
    rows.push([name, rate, await serverMicros(redis, command)]);
  }
  const incr = rows[0]![1];
  console.log(
    `\nRedis ${url}; ${CHECKS} checks each; redis-benchmark -c 50; evaluate() ${IN_FLIGHT} in flight, one ioredis connection\n`,
  );
  console.log("| what | ops/s | x INCR | Redis µs per call |\n| --- | ---: | ---: | ---: |");
  for (const [name, rate, micros] of rows) {
    console.log(`| ${name} | ${Math.round(rate)} | ${(rate / incr).toFixed(2)} | ${micros.toFixed(1)} |`);
  }
  console.log("\n| algorithm | bytes per idle identifier (MEMORY USAGE) |\n| --- | ---: |");
  let example = "";
  for (const algorithm of ALGORITHMS) {
    const { bytes, key } = await bytesPerIdentifier(redis, algorithm);
    example = key;
    console.log(`| ${algorithm} | ${bytes} |`);
  }
  console.log(`\n(keys like ${example}: ${example.length} characters; the state after one check of cost 1)`);
  const keys = await redis.keys(`{t:${TENANT}}:*`);
  for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
} finally {
  redis.disconnect();
  own?.stop();
}
