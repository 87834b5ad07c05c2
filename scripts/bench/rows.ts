// Table rows from what the phases and redis-benchmark measured.
import type { PhaseSummary } from "./rounds";
import type { RedisBenchmarkResult } from "./redis-benchmark";
import type { Row } from "./report";

/** A load phase's row: its median round, and CPU per check over all its rounds. */
export function phaseRow(
  summary: PhaseSummary,
  id: string,
  what: string,
  note?: string,
  perRequest = 1,
): Row {
  const { median, serverCpu, redisCpu, clientCpu, requests } = summary;
  const checks = requests * perRequest;
  return {
    id,
    what,
    rps: median.rps,
    cps: median.rps * perRequest,
    p50: median.p50,
    p99: median.p99,
    serverUs: serverCpu / checks,
    redisUs: redisCpu / checks,
    clientUs: clientCpu / checks,
    note: note ?? median.note,
  };
}

/** A redis-benchmark row: Redis alone, `perCall` checks in each script call. */
export function redisRow(
  result: RedisBenchmarkResult,
  id: string,
  what: string,
  note: string,
  perCall = 1,
): Row {
  return {
    id,
    what,
    rps: result.rps,
    cps: result.rps * perCall,
    p50: result.p50,
    p99: result.p99,
    serverUs: Number.NaN,
    redisUs: result.redisUs / perCall,
    clientUs: Number.NaN,
    note,
  };
}
