// Phases (w1) and (w2): POST /api/check, 3 limits, on a server started with SLUICE_WORKERS=1
// and =2 (node:cluster: that many check processes on one port). Each round starts its server
// afresh and stops it after. CPU counts the whole process tree (primary, workers, app
// process). On a 2-core machine wrk and Redis compete with the workers for the same cores,
// so (w2) over (w1) is what this machine allows, not what N cores give.
import { execFileSync } from "node:child_process";
import { startApp } from "./app-server";
import { cpuMicros } from "./cpu";
import { load } from "./load";
import { freePort } from "./processes";
import type { Measured, Phase } from "./rounds";

export interface WorkerBenchOptions {
  env: Record<string, string>;
  token: string;
  bodies: string[];
  seconds: number;
  redisPid: number | undefined;
}

export const WORKER_PHASES = ["w1", "w2"] as const;

function tree(pid: number | undefined): number[] {
  if (pid === undefined) return [];
  const children = execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
    .split("\n")
    .map((line) => Number(line.trim()))
    .filter((child) => child > 0);
  return [pid, ...children];
}

const cpuOf = (pids: number[]): number => pids.reduce((sum, pid) => sum + cpuMicros(pid), 0);

async function measure(workers: number, options: WorkerBenchOptions): Promise<Measured> {
  const env = { ...options.env, SLUICE_WORKERS: String(workers) };
  const app = await startApp(`app-${workers}-workers`, await freePort(), env, options.token);
  try {
    const base = {
      url: `${app.url}/api/check`,
      bodies: options.bodies,
      token: options.token,
      connections: 50,
    };
    console.log(`[bench] (w${workers}) ${workers} check worker(s): warm-up 1 s, then ${options.seconds} s`);
    await load({ ...base, seconds: 1 });
    const pids = tree(app.pid);
    const [server0, redis0] = [cpuOf(pids), cpuMicros(options.redisPid)];
    const result = await load({ ...base, seconds: options.seconds });
    const [server1, redis1] = [cpuOf(pids), cpuMicros(options.redisPid)];
    return {
      ...result,
      serverCpu: server1 - server0,
      redisCpu: redis1 - redis0,
      note: `SLUICE_WORKERS=${workers}; wrk and Redis share the cores`,
      seconds: options.seconds,
    };
  } finally {
    await app.stop();
  }
}

export function workerPhases(options: WorkerBenchOptions): Phase[] {
  return [1, 2].map((workers) => ({ id: `w${workers}`, run: () => measure(workers, options) }));
}
