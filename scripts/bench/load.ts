// The load generator: autocannon with keep-alive connections, run in this process while the
// server under test runs in its own.
import autocannon from "autocannon";

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

export interface LoadOptions {
  url: string;
  bodies: string[];
  token?: string;
  seconds: number;
  connections?: number;
  /** fixed total request rate (req/s) instead of as fast as possible */
  rate?: number;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const result = await autocannon({
    url: options.url,
    connections: options.connections ?? 50,
    duration: options.seconds,
    ...(options.rate ? { overallRate: options.rate } : {}),
    requests: options.bodies.map((body) => ({ method: "POST" as const, headers, body })),
  });
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}
