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
  /** the load generator's CPU µs over all rounds (NaN when not measured) */
  clientCpu: number;
  requests: number;
}

/**
 * `beforeRound` runs before each round (e.g. fresh server processes). `swap`: two phases
 * that take turns going first, round by round (a phase right after another one's load was
 * seen slower by up to a fifth: comparing the two must not depend on their order).
 */
export async function runRounds(
  phases: readonly Phase[],
  rounds: number,
  beforeRound: (round: number) => Promise<void> = async () => undefined,
  swap: readonly [string, string] | null = null,
): Promise<Map<string, PhaseSummary>> {
  const results = new Map<string, Measured[]>(phases.map((phase) => [phase.id, []]));
  for (let round = 0; round < rounds; round++) {
    await beforeRound(round);
    const order = [...phases];
    const [i, j] = swap
      ? [order.findIndex((p) => p.id === swap[0]), order.findIndex((p) => p.id === swap[1])]
      : [-1, -1];
    if (round % 2 === 1 && i >= 0 && j >= 0) [order[i], order[j]] = [order[j] as Phase, order[i] as Phase];
    for (const phase of order) results.get(phase.id)?.push(await phase.run());
  }
  const summaries = new Map<string, PhaseSummary>();
  for (const [id, measured] of results) {
    const sorted = [...measured].sort((x, y) => x.rps - y.rps);
    summaries.set(id, {
      median: sorted[Math.floor(sorted.length / 2)] as Measured,
      serverCpu: measured.reduce((sum, m) => sum + m.serverCpu, 0),
      redisCpu: measured.reduce((sum, m) => sum + m.redisCpu, 0),
      clientCpu: measured.reduce((sum, m) => sum + (m.clientCpu ?? Number.NaN), 0),
      requests: measured.reduce((sum, m) => sum + m.rps * m.seconds, 0),
    });
  }
  return summaries;
}
