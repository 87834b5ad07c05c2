// The soak's per-minute table and its verdict line.
import type { MinuteLoad } from "./minute";
import type { Sample } from "./sample";

export interface MinuteRow extends MinuteLoad, Sample {
  minute: number;
  /** what happened in this minute (restarts): errors here are expected */
  events: string;
}

const f = (n: number, digits = 0): string => (Number.isFinite(n) ? n.toFixed(digits) : "-");

export function printHeader(): void {
  console.log(
    "\nmin  checks/s  p50 ms  p99 ms  errors  front RSS MB  front heap MB  app RSS MB  redis used MB  pg conns  events",
  );
}

export function printRow(row: MinuteRow): void {
  console.log(
    `${String(row.minute).padStart(3)}  ${f(row.checksPerSecond).padStart(8)}  ${f(row.p50, 1).padStart(6)}  ${f(row.p99, 1).padStart(6)}  ` +
      `${String(row.errors).padStart(6)}  ${f(row.frontRssMb, 1).padStart(11)}  ${f(row.frontHeapMb, 1).padStart(13)}  ` +
      `${f(row.appRssMb, 1).padStart(10)}  ${f(row.redisUsedMb, 2).padStart(13)}  ${f(row.pgConnections).padStart(8)}  ${row.events}`,
  );
}

/** Growth from the first minute after warm-up to the last, as a share (NaN when not measured). */
function growth(rows: readonly MinuteRow[], pick: (row: MinuteRow) => number): number {
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (!first || !last) return Number.NaN;
  return (pick(last) - pick(first)) / pick(first);
}

export interface Verdict {
  line: string;
  pass: boolean;
}

/**
 * Flat: after warm-up (the first fifth, at least a minute), the check and app processes'
 * memory grows by at most 10% (+8 MB, the heap's own sawtooth), PostgreSQL connections by at
 * most 2; errors only in the restart minutes; no usage count lost. Redis holds the per-second
 * usage series for the retention (5 min here): judged only on runs longer than that.
 */
export function verdict(
  rows: readonly MinuteRow[],
  decisions: number,
  counted: number,
  retentionMinutes: number,
): Verdict {
  const warmUp = Math.max(1, Math.floor(rows.length / 5));
  const after = rows.slice(warmUp);
  const flat = (pick: (row: MinuteRow) => number, slackMb: number): boolean => {
    const first = after[0];
    const last = after[after.length - 1];
    if (!first || !last) return true;
    return pick(last) <= pick(first) * 1.1 + slackMb;
  };
  const memoryFlat =
    flat((r) => r.frontRssMb, 8) && flat((r) => r.frontHeapMb, 8) && flat((r) => r.appRssMb, 8);
  const pgFlat = flat((r) => r.pgConnections, 2);
  const redisAfter = rows.slice(retentionMinutes + 1);
  const redisFlat = redisAfter.length < 2 ? null : growth(redisAfter, (r) => r.redisUsedMb) <= 0.1;
  const strayErrors = rows.filter((r) => r.errors > 0 && r.events === "").reduce((n, r) => n + r.errors, 0);
  const lost = Math.max(0, decisions - counted);
  const pass = memoryFlat && pgFlat && redisFlat !== false && strayErrors === 0 && lost === 0;
  const line =
    `soak verdict: ${pass ? "PASS" : "FAIL"} — memory ${memoryFlat ? "flat" : "GROWING"} after ${warmUp} min warm-up, ` +
    `PostgreSQL connections ${pgFlat ? "flat" : "GROWING"}, Redis memory ${redisFlat === null ? `not judged (run shorter than the ${retentionMinutes} min usage retention)` : redisFlat ? "flat" : "GROWING"}, ` +
    `errors outside restart windows ${strayErrors}, usage lost ${lost} (${decisions} decisions, ${counted} counted)`;
  return { line, pass };
}
