import { createClient, type CheckRequest, type SluiceClient } from "@sluice/client";

// What `npm run bench:client` and the client rows of `npm run bench` measure: a raw fetch
// of /api/check next to @sluice/client's check() from the same process (same check, so
// the difference is the client's own cost per call), and a denied check answered by the
// client's local deny cache next to asking Sluice.

export interface Target {
  url: string;
  token: string;
}

export interface CallTimes {
  /** wall µs per call over the run (its inverse is calls/s with any number in flight) */
  usPerCall: number;
  /** per-call latency in ms (sequential runs only; NaN otherwise) */
  p50: number;
  p99: number;
}

export type Call = () => Promise<boolean>;

export function rawCall(target: Target, check: CheckRequest): Call {
  const headers = { authorization: `Bearer ${target.token}`, "content-type": "application/json" };
  const body = JSON.stringify(check);
  return async () => {
    const response = await fetch(`${target.url}/api/check`, { method: "POST", headers, body });
    return ((await response.json()) as { allowed: boolean }).allowed;
  };
}

export function clientCall(client: SluiceClient, check: CheckRequest): Call {
  return async () => (await client.check(check)).allowed;
}

const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? Number.NaN;

/** `total` calls with `parallel` in flight. */
export async function timeCalls(call: Call, total: number, parallel: number): Promise<CallTimes> {
  let next = 0;
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next++ < total) {
        const t0 = performance.now();
        await call();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const usPerCall = ((performance.now() - started) * 1000) / total;
  if (parallel > 1) return { usPerCall, p50: Number.NaN, p99: Number.NaN };
  latencies.sort((a, b) => a - b);
  return { usPerCall, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
}

const medianOf = (runs: readonly CallTimes[]): CallTimes =>
  [...runs].sort((a, b) => a.usPerCall - b.usPerCall)[Math.floor(runs.length / 2)] as CallTimes;

/** Raw and client in `rounds` rounds, taking turns going first; the median run of each. */
export async function rawVersusClient(
  raw: Call,
  viaClient: Call,
  rounds: number,
  total: number,
  parallel: number,
): Promise<{ raw: CallTimes; client: CallTimes }> {
  const a: CallTimes[] = [];
  const b: CallTimes[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      a.push(await timeCalls(raw, total, parallel));
      b.push(await timeCalls(viaClient, total, parallel));
    } else {
      b.push(await timeCalls(viaClient, total, parallel));
      a.push(await timeCalls(raw, total, parallel));
    }
  }
  return { raw: medianOf(a), client: medianOf(b) };
}

/** A check Sluice denies, answered by the local deny cache for `ms`, next to asking Sluice. */
export async function localDeny(
  target: Target,
  denied: CheckRequest,
  ms = 1_000,
): Promise<{ local: CallTimes; callsPerSec: number; remote: CallTimes }> {
  const local = createClient({ ...target, timeoutMs: 5_000, localDenyCache: { maxMs: 60_000 } });
  const remote = createClient({ ...target, timeoutMs: 5_000, localDenyCache: false });
  for (let i = 0; i < 1_000 && (await local.check(denied)).allowed; i++);
  const first = await local.check(denied);
  if (first.allowed || first.source !== "local") throw new Error("the deny phase found no denial to cache");
  let calls = 0;
  const started = performance.now();
  while (performance.now() - started < ms) {
    for (let i = 0; i < 1_000; i++) await local.check(denied);
    calls += 1_000;
  }
  const callsPerSec = (calls * 1000) / (performance.now() - started);
  const sample = await timeCalls(clientCall(local, denied), 10_000, 1);
  const remoteTimes = await timeCalls(clientCall(remote, denied), 2_000, 1);
  return { local: sample, callsPerSec, remote: remoteTimes };
}
