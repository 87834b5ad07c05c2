// A fixed-rate GET measurer for the admin plane: autocannon's rate mode (load.ts) sends only
// the POST bodies of the check phases, and releases each connection's requests in bursts.
// Here request i is due at start + i / rate; its latency is counted from that due time, so
// a request that waits for a free connection (the app answering slowly) counts its wait too.
import http from "node:http";
import type { LoadResult } from "./load";

export interface GetLoadOptions {
  url: string;
  token: string;
  rate: number;
  seconds: number;
  /** keep-alive connections shared by the requests */
  connections: number;
  /** a request unanswered after this counts as failed */
  timeoutMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function getOnce(agent: http.Agent, url: URL, token: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
      response.resume();
      response.once("end", () => resolve(response.statusCode ?? 0));
      response.once("error", () => resolve(0));
    });
    request.setTimeout(timeoutMs, () => request.destroy());
    request.once("error", () => resolve(0));
  });
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

export async function fixedRateGet(options: GetLoadOptions): Promise<LoadResult> {
  const url = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const total = Math.round(options.rate * options.seconds);
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / options.rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    inFlight.push(
      getOnce(agent, url, options.token, options.timeoutMs ?? 15_000).then((status) => {
        latencies.push(performance.now() - due);
        if (status !== 200) failures++;
      }),
    );
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  const sorted = latencies.sort((x, y) => x - y);
  return {
    rps: total / elapsed,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
    failures,
  };
}
