// Redis' own cost of deciding checks: npm run bench:lua (tsx scripts/bench/lua-calls.ts).
// Replays the realistic mix's check-many calls (realistic-calls.ts: built by the real check
// pipeline, 11 checks a call as the server's batches averaged under the bench's mix) on a
// throwaway Redis, and prints per check the time Redis spent in EVALSHA (INFO
// commandstats) and its whole CPU (from /proc, reading the commands included). Every pass
// starts from an empty Redis (FLUSHALL), so the owners are as new as in a bench phase.
// BENCH_LUA_BASE=<a lua/ directory> replays the same calls with those scripts too, in turns
// with this tree's: the A/B of a script change (passes differ by a few percent here; read
// the minimum). BENCH_LUA_CHECKS (default 120,000) and BENCH_LUA_PASSES (default 6).
import { Redis } from "ioredis";
import { startBenchRedis } from "./bench-redis";
import { cpuMicros } from "./cpu";
import { freePort, stopAll } from "./processes";
import { realisticCalls } from "./realistic-calls";
import type { Script } from "@/lib/shared/redis/script-client";

await import(new URL("../server-only-hook.mjs", import.meta.url).href);
const { MANY_SCRIPT_FILES } = await import("@/lib/check/limiter/script");
const { luaDir, readScript } = await import("@/lib/shared/redis/lua-files");

function positive(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a whole number >= 1`);
  return value;
}

const CHECKS = positive("BENCH_LUA_CHECKS", 120_000);
const PASSES = positive("BENCH_LUA_PASSES", 6);
const PER_CALL = 11;
const IN_FLIGHT = 4;

interface Scripts extends Script {
  label: string;
}

const scriptsOf = (label: string, dir: string): Scripts => ({ label, ...readScript(MANY_SCRIPT_FILES, dir) });

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function main(): Promise<void> {
  const built = realisticCalls(CHECKS, PER_CALL);
  const port = await freePort();
  const server = await startBenchRedis(port);
  const redis = new Redis({ port, host: "127.0.0.1", enableAutoPipelining: false });
  const variants = [scriptsOf("this tree", luaDir())];
  if (process.env.BENCH_LUA_BASE)
    variants.push(scriptsOf(`base ${process.env.BENCH_LUA_BASE}`, process.env.BENCH_LUA_BASE));
  for (const variant of variants) await redis.script("LOAD", variant.lua);

  const pass = async (variant: Scripts): Promise<{ evalsha: number; cpu: number }> => {
    await redis.flushall();
    await redis.config("RESETSTAT");
    const before = cpuMicros(server.pid);
    let inFlight: Array<Promise<unknown>> = [];
    for (const call of built.calls) {
      inFlight.push(redis.evalsha(variant.sha, call.keys.length, ...call.keys, ...call.args));
      if (inFlight.length >= IN_FLIGHT) {
        await Promise.all(inFlight);
        inFlight = [];
      }
    }
    await Promise.all(inFlight);
    const cpu = cpuMicros(server.pid) - before;
    const usec = Number(/cmdstat_evalsha:calls=\d+,usec=(\d+)/.exec(await redis.info("commandstats"))?.[1]);
    return { evalsha: usec / built.checks, cpu: cpu / built.checks };
  };

  const results = new Map<string, Array<{ evalsha: number; cpu: number }>>(
    variants.map((v) => [v.label, []]),
  );
  for (let round = 0; round < PASSES; round++)
    for (const variant of round % 2 === 0 ? variants : [...variants].reverse())
      results.get(variant.label)?.push(await pass(variant));
  redis.disconnect();

  console.log(
    `\nlua/check-many.lua replayed: ${built.checks} checks of the realistic mix in ${built.calls.length} calls ` +
      `(${built.limitsPerCheck.toFixed(2)} limits a check, ${built.keysPerCall.toFixed(1)} owner keys a call), ` +
      `${PASSES} passes each from an empty Redis; µs per check\n`,
  );
  console.log("| scripts | EVALSHA min | EVALSHA median | Redis CPU min | Redis CPU median |");
  console.log("| --- | ---: | ---: | ---: | ---: |");
  for (const [label, runs] of results) {
    const evalsha = runs.map((r) => r.evalsha);
    const cpu = runs.map((r) => r.cpu);
    console.log(
      `| ${label} | ${Math.min(...evalsha).toFixed(2)} | ${median(evalsha).toFixed(2)} | ${Math.min(...cpu).toFixed(2)} | ${median(cpu).toFixed(2)} |`,
    );
  }
}

try {
  await main();
} finally {
  await stopAll();
}
