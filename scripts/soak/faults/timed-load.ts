// One minute of the fault soak's load (autocannon at a fixed rate, as the plain soak), also
// judging every answer the client saw later than a bound (the check timeout + 50 ms) as the
// failover tests do (tests/reliability/stall-excuse.ts): excused when this process's own
// stalls, or those joined with the check front's (read from /api/metrics/stalls), account
// for the excess; an answer can be late only because a process on its way could not run.
import autocannon from "autocannon";
import type { MinuteLoad } from "../minute";
import { LoopStalls } from "@/lib/check/loop-stalls";
import {
  boundFigures,
  stallsOf,
  type BoundFigures,
  type Timed,
} from "../../../tests/reliability/stall-excuse";
import { StallRecord } from "../../../tests/reliability/stall-record";

export interface TimedLoad extends MinuteLoad {
  /** answers over the bound, and how many of them each side's stalls excuse */
  bound: BoundFigures;
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
  const late: Timed[] = [];
  let maxMs = 0;
  // a 1 ms tick, as the failover tests' traffic: a starved process's waits are 2-10 ms each
  const stalls = new LoopStalls(undefined, { tickMs: 1, minLateMs: 2, spans: 16_384 });
  const record = new StallRecord(new URL(url).origin, stalls);
  stalls.start();
  record.start();
  const instance = autocannon({
    url,
    connections: 10,
    duration: seconds,
    overallRate: rate,
    requests: bodies.map((body) => ({ method: "POST" as const, headers, body })),
  });
  instance.on("response", (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
    if (responseTime > boundMs) late.push({ sent: Date.now() - responseTime, ms: responseTime });
    if (responseTime > maxMs) maxMs = responseTime;
  });
  const result = await instance;
  await record.stop();
  stalls.stop();
  return {
    checksPerSecond: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    decisions: result["2xx"],
    errors: result.errors + result.timeouts + result.non2xx,
    bound: boundFigures(late, stallsOf(record.client, record.server), boundMs),
    maxMs,
  };
}
