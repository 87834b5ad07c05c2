// The load generators, each in its own process or this one, while the server under test
// runs in its own. Throughput phases use wrk (C, one thread): autocannon parses responses
// with a JavaScript HTTP parser whose cost grows with the answer, so with Sluice's 1.1 KB
// decisions it, not the server, would set the pace (measured: 36 µs of its CPU per
// decision against 20 µs per bare answer). A fixed request rate needs autocannon (Debian
// has wrk but not wrk2).
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import autocannon from "autocannon";
import { endedChildrenCpuMicros } from "./cpu";

const run = promisify(execFile);

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** the slowest request (fixed-rate phases) */
  max?: number;
  failures: number;
  /** CPU µs the load generator used (wrk only) */
  clientCpu?: number;
}

export interface LoadOptions {
  url: string;
  bodies: string[];
  token?: string;
  seconds: number;
  connections?: number;
  /** fixed total request rate (req/s) instead of as fast as possible */
  rate?: number;
  /** wrk only: a whole wrk script of its own (e.g. one that generates bodies) for `bodies` */
  script?: string;
}

export function load(options: LoadOptions): Promise<LoadResult> {
  return options.rate ? fixedRate(options, options.rate) : wrk(options);
}

/** wrk's request() cycles through the bodies; long brackets need no escaping. */
function wrkScript(path: string, bodies: string[], token?: string): string {
  const auth = token ? `wrk.headers["authorization"] = "Bearer ${token}"\n` : "";
  const list = bodies.map((body) => `[==[${body}]==]`).join(",\n");
  return `wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
${auth}local bodies = { ${list} }
local i = 0
request = function()
  i = i % #bodies + 1
  return wrk.format(nil, "${path}", nil, bodies[i])
end
`;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000 };

function latencyMs(output: string, percentile: string): number {
  const match = new RegExp(`^\\s*${percentile}%\\s+([\\d.]+)(us|ms|s)\\s*$`, "m").exec(output);
  return match ? Number(match[1]) * (UNIT_MS[match[2] as string] ?? 1) : Number.NaN;
}

async function wrk(options: LoadOptions): Promise<LoadResult> {
  const url = new URL(options.url);
  const dir = mkdtempSync(join(tmpdir(), "sluice-wrk-"));
  const script = join(dir, "requests.lua");
  writeFileSync(script, options.script ?? wrkScript(url.pathname, options.bodies, options.token));
  try {
    const client0 = endedChildrenCpuMicros();
    const { stdout } = await run(
      "wrk",
      [
        "-t1",
        `-c${options.connections ?? 50}`,
        `-d${options.seconds}s`,
        "--latency",
        "-s",
        script,
        url.origin,
      ],
      { maxBuffer: 1 << 20 },
    );
    const rps = Number(/^Requests\/sec:\s+([\d.]+)/m.exec(stdout)?.[1] ?? Number.NaN);
    const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
    const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
    const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
    return {
      rps,
      p50: latencyMs(stdout, "50"),
      p99: latencyMs(stdout, "99"),
      failures: non2xx + socketErrors,
      clientCpu: endedChildrenCpuMicros() - client0,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function fixedRate(options: LoadOptions, rate: number): Promise<LoadResult> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const result = await autocannon({
    url: options.url,
    connections: options.connections ?? 50,
    duration: options.seconds,
    overallRate: rate,
    requests: options.bodies.map((body) => ({ method: "POST" as const, headers, body })),
  });
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}
