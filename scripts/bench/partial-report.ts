// What a partial bench (BENCH_PHASES=b,e,...) prints: each phase measured on one line, and
// the tables and targets whose phases all ran (the full table needs every phase).
import { printTable, printTargets, type Row, type Target } from "./report";
import type { Measured, PhaseSummary } from "./rounds";
import { grpcTarget } from "./grpc-phases";
import { kindRows, kindTargets } from "./kind-costs";

const KIND_PHASES = ["kp", "kcn", "kc", "kpa", "kpb", "kaj", "kaa", "e"];

export interface PartialInput {
  summaries: Map<string, PhaseSummary>;
  recording: { rows: Row[]; target: Target } | null;
  noisyTarget: (n: Measured, quiet: Measured) => Target;
  admin: {
    rows: (get: (id: string) => PhaseSummary) => Row[];
    target: (ah: Measured, quiet: Measured) => Target;
  };
}

export function partialReport(input: PartialInput): void {
  const { summaries, recording, admin } = input;
  const get = (id: string): PhaseSummary => summaries.get(id) as PhaseSummary;
  if (recording) {
    printTable(recording.rows, recording.rows[0] as Row);
    printTargets([recording.target]);
  }
  const [nq, n] = [summaries.get("nq"), summaries.get("n")];
  if (nq && n) printTargets([input.noisyTarget(n.median, nq.median)]);
  const [rls, rlsh] = [summaries.get("rls"), summaries.get("rlsh")];
  if (rls && rlsh) printTargets([grpcTarget(rls.median, rlsh.median)]);
  const [aq, ah] = [summaries.get("aq"), summaries.get("ah")];
  if (aq && ah) {
    const rows = admin.rows(get);
    printTable(rows, rows[0] as Row);
    printTargets([admin.target(ah.median, aq.median)]);
  }
  if (KIND_PHASES.every((id) => summaries.has(id))) {
    const rows = kindRows(get);
    printTable(rows, rows[0] as Row);
    printTargets(kindTargets(get));
  }
  for (const [id, { median, serverCpu, redisCpu, clientCpu, requests }] of summaries)
    console.log(
      `${id}: ${Math.round(median.rps)} req/s, p50 ${median.p50} ms, p99 ${median.p99} ms, server ${(serverCpu / requests).toFixed(1)} µs/req, Redis ${(redisCpu / requests).toFixed(1)} µs/req, wrk ${(clientCpu / requests).toFixed(1)} µs/req, ${median.note}`,
    );
}
