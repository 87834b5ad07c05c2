// Phases measured in rounds: every phase once per round, the rounds one after another, so a
// slow stretch of this shared machine hits all phases alike instead of the few that ran
// then, and ratios within one run stay meaningful. Each phase is reported by its median
// round (by req/s, with that round's latencies); CPU per check sums over all rounds.
import type { LoadResult } from "./load";

/** One round of one phase: its load figures and the CPU µs of its server process and Redis. */
export interface Measured extends LoadResult {
  serverCpu: number;
  redisCpu: number;
  /** what the server answered (allowed/ok 100%...), or a fixed description */
  note: string;
  seconds: number;
}

export interface Phase {
  id: string;
  run: () => Promise<Measured>;
}

export interface PhaseSummary {
  /** the median round by req/s */
  median: Measured;
  /** CPU µs over all rounds, and the requests they served */
  serverCpu: number;
  redisCpu: number;
  requests: number;
}

export async function runRounds(
  phases: readonly Phase[],
  rounds: number,
): Promise<Map<string, PhaseSummary>> {
  const results = new Map<string, Measured[]>(phases.map((phase) => [phase.id, []]));
  for (let round = 0; round < rounds; round++) {
    for (const phase of phases) results.get(phase.id)?.push(await phase.run());
  }
  const summaries = new Map<string, PhaseSummary>();
  for (const [id, measured] of results) {
    const sorted = [...measured].sort((x, y) => x.rps - y.rps);
    summaries.set(id, {
      median: sorted[Math.floor(sorted.length / 2)] as Measured,
      serverCpu: measured.reduce((sum, m) => sum + m.serverCpu, 0),
      redisCpu: measured.reduce((sum, m) => sum + m.redisCpu, 0),
      requests: measured.reduce((sum, m) => sum + m.rps * m.seconds, 0),
    });
  }
  return summaries;
}
