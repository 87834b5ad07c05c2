// A span of time as people read it in the console: "40 ms", "1.5 s", "1 min 37 s",
// "2 h 5 min", "3 d 4 h". Isomorphic (server pages and client components alike).
// Not for config documents: those keep formatDuration's exact spelling ("97283ms"), which
// parses back; this one rounds to what a reader needs.

const SECOND = 1_000;
const MINUTE = 60;
const HOUR = 3_600;

/** Two units at most, the larger first; a zero second unit is left out ("2 min", not "2 min 0 s"). */
function pair(big: number, bigUnit: string, small: number, smallUnit: string): string {
  return small > 0 ? `${big} ${bigUnit} ${small} ${smallUnit}` : `${big} ${bigUnit}`;
}

/** ms as "40 ms", "1.5 s", "12 s", "1 min 37 s", "2 h 5 min", "3 d 4 h"; negative reads as 0. */
export function formatSpan(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return "0 ms";
  if (ms < SECOND) return `${Math.max(1, Math.round(ms))} ms`;
  // below 10 s a tenth still matters ("1.5 s" is not "2 s")
  if (ms < 10 * SECOND) {
    const tenths = Math.round(ms / 100) / 10;
    if (tenths < 10) return `${tenths} s`;
  }
  const s = Math.round(ms / SECOND);
  if (s < MINUTE) return `${s} s`;
  if (s < HOUR) return pair(Math.floor(s / MINUTE), "min", s % MINUTE, "s");
  const minutes = Math.round(s / MINUTE);
  if (minutes < 24 * 60) return pair(Math.floor(minutes / 60), "h", minutes % 60, "min");
  const hours = Math.round(s / HOUR);
  return pair(Math.floor(hours / 24), "d", hours % 24, "h");
}
