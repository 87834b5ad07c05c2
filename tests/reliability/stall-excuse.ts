// The client-side bound of a check, and what may excuse an answer over it: time in which a
// process on the answer's way could not run. An answer sent at `sent` and received `ms`
// later is over the bound when ms > bound; the part of [sent, sent + ms] covered by the
// client's own stall spans, or by the union of the client's and the server's (each instant
// counted once), is taken off. What is left over the bound is unexplained.
//
// Why this cannot hide a real failover wait: a wait on the check path (a queue behind the
// dead node, a reconnect, a timer armed late) is time in which both event loops RUN (they
// are idle, waiting), so their stall watches note no span in it; only a process that could
// not run at all (descheduled, or its loop busy with other work) leaves one.

export type Span = readonly [number, number];

/** The spans joined where they overlap or touch, in order: each instant once. */
export function union(spans: readonly Span[]): Span[] {
  const sorted = [...spans].filter(([start, end]) => end > start).sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of sorted) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** Milliseconds of [from, to] that the (already joined) spans cover. */
export function coveredMs(joined: readonly Span[], from: number, to: number): number {
  let total = 0;
  for (const [start, end] of joined) {
    if (start >= to) break;
    const overlap = Math.min(end, to) - Math.max(start, from);
    if (overlap > 0) total += overlap;
  }
  return total;
}

export type Excuse = "within" | "client" | "server" | "unexplained";

export interface Timed {
  /** when sent, epoch ms */
  sent: number;
  ms: number;
}

export interface Stalls {
  /** the client's own spans, joined */
  client: readonly Span[];
  /** the client's and the server's spans, joined together */
  both: readonly Span[];
  /** each side's as recorded, for a printout */
  clientRaw: readonly Span[];
  serverRaw: readonly Span[];
}

export function stallsOf(client: readonly Span[], server: readonly Span[]): Stalls {
  return {
    client: union(client),
    both: union([...client, ...server]),
    clientRaw: union(client),
    serverRaw: union(server),
  };
}

/**
 * "within" the bound; else "client" when the client's own stalls in the answer's span
 * account for the excess; else "server" when the server's stalls, joined with the
 * client's, do; else "unexplained".
 */
export function excuseOf(answer: Timed, stalls: Stalls, boundMs: number): Excuse {
  if (answer.ms <= boundMs) return "within";
  const to = answer.sent + answer.ms;
  if (answer.ms - coveredMs(stalls.client, answer.sent, to) <= boundMs) return "client";
  if (answer.ms - coveredMs(stalls.both, answer.sent, to) <= boundMs) return "server";
  return "unexplained";
}

export interface BoundFigures {
  overBound: number;
  excusedByClient: number;
  excusedByServer: number;
  unexplained: number;
}

export function boundFigures(answers: readonly Timed[], stalls: Stalls, boundMs: number): BoundFigures {
  const counts: BoundFigures = { overBound: 0, excusedByClient: 0, excusedByServer: 0, unexplained: 0 };
  for (const answer of answers) {
    const excuse = excuseOf(answer, stalls, boundMs);
    if (excuse === "within") continue;
    counts.overBound++;
    if (excuse === "client") counts.excusedByClient++;
    else if (excuse === "server") counts.excusedByServer++;
    else counts.unexplained++;
  }
  return counts;
}
