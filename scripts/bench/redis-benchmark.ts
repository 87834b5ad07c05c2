// (f), (f'): redis-benchmark running a check script exactly as the server sends it (EVALSHA,
// 50 clients): what Redis alone does with it, no HTTP and no Node in between.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import { cpuMicros } from "./cpu";

const run = promisify(execFile);

export interface RedisBenchmarkResult {
  rps: number;
  p50: number;
  p99: number;
  /** Redis CPU µs per call */
  redisUs: number;
}

export async function redisBenchmark(
  port: number,
  redisPid: number | undefined,
  lua: string,
  evalsha: string[],
  requests = 100_000,
): Promise<RedisBenchmarkResult> {
  const redis = new Redis(`redis://127.0.0.1:${port}`);
  await redis.script("LOAD", lua);
  redis.disconnect();
  const before = cpuMicros(redisPid);
  const { stdout } = await run(
    "redis-benchmark",
    ["-h", "127.0.0.1", "-p", String(port), "-c", "50", "-n", String(requests), "--csv", ...evalsha],
    { maxBuffer: 1 << 24 },
  );
  const csv =
    stdout
      .trim()
      .split("\n")
      .pop()
      ?.split(",")
      .map((cell) => cell.replace(/"/g, "")) ?? [];
  return {
    rps: Number(csv[1]),
    p50: Number(csv[4]),
    p99: Number(csv[6]),
    redisUs: (cpuMicros(redisPid) - before) / requests,
  };
}
