// The fault soak's per-minute table and its verdict lines.
import type { TimedLoad } from "./timed-load";
import type { ProbeResult } from "./probe";
import type { ServerFigures } from "./server-figures";

export interface FaultRow extends TimedLoad {
  minute: number;
  /** the front's late answers this minute, by cause (starved, waited) */
  late: Record<string, number>;
  /** the front's degraded decisions this minute, by cause */
  degraded: Record<string, number>;
  events: string;
}

const causes = (counts: Record<string, number>): string =>
  Object.entries(counts)
    .map(([cause, n]) => `${cause} ${n}`)
    .join(", ") || "-";

export function printHeader(boundMs: number): void {
  console.log(
    `\nmin  checks/s  p99 ms  max ms  >${boundMs} ms (excused: client / front; unexplained)  late (server)  errors  degraded (server, by cause)  events`,
  );
}

export function printRow(row: FaultRow): void {
  console.log(
    `${String(row.minute).padStart(3)}  ${row.checksPerSecond.toFixed(0).padStart(8)}  ${row.p99.toFixed(0).padStart(6)}  ` +
      `${row.maxMs.toFixed(0).padStart(6)}  ${`${row.bound.overBound} (${row.bound.excusedByClient} / ${row.bound.excusedByServer}; ${row.bound.unexplained})`.padStart(44)}  ${causes(row.late).padEnd(13)}  ` +
      `${String(row.errors).padStart(6)}  ${causes(row.degraded).padEnd(27)}  ${row.events}`,
  );
}

const total = (rows: readonly FaultRow[], pick: (row: FaultRow) => number): number =>
  rows.reduce((sum, row) => sum + pick(row), 0);

function sumCauses(rows: readonly FaultRow[], pick: (row: FaultRow) => Record<string, number>) {
  const out: Record<string, number> = {};
  for (const row of rows)
    for (const [cause, n] of Object.entries(pick(row))) out[cause] = (out[cause] ?? 0) + n;
  return out;
}

/**
 * The goals: no answer later than the bound (client's view, and the server's own count of
 * answers that waited on anything but its CPU), no check admitted by Redis beyond the probe's
 * limit except what a crashed primary had not yet handed its replica, every decision in usage.
 * An answer the server sent late because its CPU was taken (starved) is reported, not failed:
 * the saturated minute measures what that costs.
 */
export function verdictLines(
  rows: readonly FaultRow[],
  probe: ProbeResult,
  decisions: number,
  counted: number,
  forgettable: number,
  recorder: ServerFigures["usage"],
): { lines: string[]; pass: boolean } {
  const late = sumCauses(rows, (r) => r.late);
  const over = total(rows, (r) => r.bound.overBound);
  const byClient = total(rows, (r) => r.bound.excusedByClient);
  const byFront = total(rows, (r) => r.bound.excusedByServer);
  const unexplained = total(rows, (r) => r.bound.unexplained);
  const waited = late.waited ?? 0;
  // a request cut off at a minute's end may be decided (counted) and never answered: at most
  // one per connection (10) a minute; fewer counted than answered is a loss
  const extra = counted - decisions;
  const equal = extra >= 0 && extra <= 10 * rows.length;
  const lines = [
    `answers over the bound (client): ${over}, excused by the load generator's stalls ${byClient}, by the front's ${byFront}, unexplained ${unexplained} (goal 0: ${unexplained === 0 ? "met" : "MISSED"}); server late answers: ${causes(late)} (goal: waited 0: ${waited === 0 ? "met" : "MISSED"})`,
    `degraded decisions by cause: ${causes(sumCauses(rows, (r) => r.degraded))}; errors: ${total(rows, (r) => r.errors)}`,
    `probe (${probe.checks} checks): admitted by Redis beyond the limit ${probe.overAdmitted} (goal <= ${forgettable}: ${probe.overAdmitted <= forgettable ? "met" : "MISSED"}); admitted degraded (fail open): ${causes(probe.degradedAdmitted)}; failed ${probe.failed}`,
    `usage: ${counted} counted against ${decisions} answered decisions (goal equal, up to the ${10 * rows.length} cut off at minute ends: ${equal ? "met" : "MISSED"}); the recorder dropped ${recorder.dropped}, sent ${recorder.retried} tenant units again, holds ${recorder.pending}`,
  ];
  const pass = waited === 0 && probe.overAdmitted <= forgettable && equal && probe.failed === 0;
  return { lines, pass };
}
