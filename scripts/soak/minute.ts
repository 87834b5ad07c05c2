// One minute of the soak's load: autocannon at a fixed rate over many bodies (keys and
// subjects), the same generator the bench uses for its fixed-rate phases.
import autocannon from "autocannon";

export interface MinuteLoad {
  checksPerSecond: number;
  p50: number;
  p99: number;
  /** answered 2xx: decisions made (a request cut off at the minute's end may be counted, not answered) */
  decisions: number;
  /** non-2xx answers, connection errors and timeouts */
  errors: number;
}

export async function loadFor(
  url: string,
  token: string,
  bodies: readonly string[],
  rate: number,
  seconds: number,
): Promise<MinuteLoad> {
  const headers = { "content-type": "application/json", authorization: `Bearer ${token}` };
  const result = await autocannon({
    url,
    connections: 10,
    duration: seconds,
    overallRate: rate,
    requests: bodies.map((body) => ({ method: "POST" as const, headers, body })),
  });
  return {
    checksPerSecond: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    decisions: result["2xx"],
    errors: result.errors + result.timeouts + result.non2xx,
  };
}
