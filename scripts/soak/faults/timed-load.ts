// One minute of the fault soak's load (autocannon at a fixed rate, as the plain soak), also
// counting every answer the client saw later than a bound (the check timeout + 50 ms), and
// of those the ones this process's own stalls do not explain: the load generator shares the
// machine (and its event loop with the soak's config changes), so an answer can arrive late
// here only because this process could not run to read it.
import autocannon from "autocannon";
import type { MinuteLoad } from "../minute";
import { LoopStalls } from "@/lib/check/loop-stalls";

export interface TimedLoad extends MinuteLoad {
  /** answers seen by the client later than the bound */
  overBound: number;
  /** ...and later than it even without the time this process's event loop was stalled */
  overBoundNotClient: number;
  /** the slowest answer the client saw, ms */
  maxMs: number;
}

export async function timedLoad(
  url: string,
  token: string,
  bodies: readonly string[],
  rate: number,
  seconds: number,
  boundMs: number,
): Promise<TimedLoad> {
  const headers = { "content-type": "application/json", authorization: `Bearer ${token}` };
  let overBound = 0;
  let overBoundNotClient = 0;
  let maxMs = 0;
  const stalls = new LoopStalls();
  stalls.start();
  const instance = autocannon({
    url,
    connections: 10,
    duration: seconds,
    overallRate: rate,
    requests: bodies.map((body) => ({ method: "POST" as const, headers, body })),
  });
  instance.on("response", (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
    if (responseTime > boundMs) {
      overBound++;
      const now = performance.now();
      if (responseTime - stalls.stalledWithin(now - responseTime, now) > boundMs) overBoundNotClient++;
    }
    if (responseTime > maxMs) maxMs = responseTime;
  });
  const result = await instance;
  stalls.stop();
  return {
    checksPerSecond: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    decisions: result["2xx"],
    errors: result.errors + result.timeouts + result.non2xx,
    overBound,
    overBoundNotClient,
    maxMs,
  };
}
