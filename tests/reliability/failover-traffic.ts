import { expect } from "vitest";
import { check, sleep, type ServerLatency } from "../integration/check/http";
import { LoopStalls } from "@/lib/check/loop-stalls";
import { boundFigures, coveredMs, excuseOf, type BoundFigures, type Span, type Stalls } from "./stall-excuse";
import { StallRecord } from "./stall-record";
import { phasesText, unwatchPhases, watchPhases, withPhases, type Phases } from "./request-phases";

// Steady check traffic against one app during a failover, and what it saw: the longest
// answer, how long decisions were degraded, when exact ones resumed, and the over-admission
// (admissions the limiter forgot: acknowledged by the old primary, never replicated).

/** The one limit of the tenants these tests check ("big", a token bucket never exhausted). */
export const bigLimit = (limit: number) => ({
  name: "big",
  algorithm: "token_bucket" as const,
  limit,
  window: "365d",
  by: "tenant" as const,
});

export interface Sample {
  /** when the check was sent, ms since the traffic started */
  at: number;
  /** ...and in epoch ms, the clock of both processes' stall spans */
  sent: number;
  ms: number;
  /** fetch's steps, performance.now() ms (request-phases.ts) */
  phases: Phases;
  /** when sent, performance.now() ms */
  sentPerf: number;
  status: number;
  allowed: boolean;
  degraded: boolean;
  remaining: number | null;
}

export class Traffic {
  readonly samples: Sample[] = [];
  private running = false;
  private workers: Promise<void>[] = [];
  readonly started = performance.now();
  /**
   * This process's own stalls, which delay an answer's arrival, not the server's answer. A
   * 1 ms tick: on a loaded machine each wakeup (an answer arriving) waits for a core, and
   * a 10 ms tick saw about half of a starved process's waits (spans of 2-10 ms, each after
   * 10 ms that counted as running).
   */
  private readonly stalls = new LoopStalls(undefined, { tickMs: 1, minLateMs: 2, spans: 16_384 });
  /** ...read with the server's, while the traffic runs */
  readonly stallRecord: StallRecord;

  constructor(
    private readonly url: string,
    private readonly tenant: string,
  ) {
    this.stallRecord = new StallRecord(url, this.stalls);
  }

  now(): number {
    return performance.now() - this.started;
  }

  start(concurrency = 4): void {
    this.running = true;
    this.stalls.start();
    this.stallRecord.start();
    watchPhases();
    this.workers = Array.from({ length: concurrency }, () => this.worker());
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
    await this.stallRecord.stop();
    unwatchPhases();
    this.stalls.stop();
  }

  /** Waits until the last `count` answers were all exact (not degraded), at most timeoutMs. */
  async exactAgain(count: number, timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline) {
      const recent = this.samples.slice(-count);
      if (recent.length === count && recent.every((s) => s.status === 200 && !s.degraded)) return true;
      await sleep(50);
    }
    return false;
  }

  private async worker(): Promise<void> {
    while (this.running) {
      const at = this.now();
      const phases: Phases = {};
      const answer = await withPhases(phases, () =>
        check({ tenant: this.tenant, route: "GET /x" }, { url: this.url }),
      ).catch(() => null);
      const ms = this.now() - at;
      this.samples.push({
        at,
        sent: performance.timeOrigin + this.started + at,
        ms,
        phases,
        sentPerf: this.started + at,
        status: answer?.status ?? 0,
        allowed: answer?.body.allowed ?? false,
        degraded: answer?.body.degraded ?? false,
        remaining: answer?.body.limits?.find((limit) => limit.name === "big")?.remaining ?? null,
      });
      await sleep(4);
    }
  }
}

export interface FailoverFigures {
  checks: number;
  non200: number;
  longestMs: number;
  /** answers over the timeout + 50 ms as the client saw them, and what excused them */
  bound: BoundFigures;
  /** the unexplained ones: sent at ms from the kill, how long, the stalls inside it */
  unexplained: string;
  degradedMs: number;
  degradedChecks: number;
  exactAfterMs: number;
  exactAdmitted: number;
  timedOut: number;
  counted: number;
  /** admissions the limiter forgot, at least (exact ones beyond what Redis remembers) */
  overAdmittedAtLeast: number;
  /** ...and at most (adding the timed-out calls, which Redis may have counted) */
  overAdmitted: number;
  /** the five slowest answers: when sent (ms from the kill) and how long */
  slowest: string;
}

/**
 * Figures of a run whose primary was killed at `killedAt`. The limit is a token bucket of
 * `limit` per `windowMs` that the traffic never exhausts: the counter's last `remaining`
 * says how many admissions Redis remembers; exact admissions beyond that were forgotten.
 */
export function figures(
  samples: Sample[],
  killedAt: number,
  timeoutMs: number,
  limit: number,
  windowMs: number,
  timedOut: number,
  stalls: Stalls,
): FailoverFigures {
  const ordered = [...samples].sort((a, b) => a.at - b.at);
  // degraded answers of the failover: from the kill until exact decisions held again (a
  // busy machine also times out a check now and then, before or after: not counted here)
  const afterKill = ordered.filter((s) => s.at + s.ms >= killedAt);
  const resumedIndex = afterKill.findIndex((s, i) =>
    afterKill.slice(i, i + 10).every((t) => !t.degraded && t.status === 200),
  );
  const firstExact = resumedIndex >= 0 ? afterKill[resumedIndex] : undefined;
  const degraded = afterKill.slice(0, resumedIndex >= 0 ? resumedIndex : undefined).filter((s) => s.degraded);
  const lastDegraded = degraded.at(-1);
  const exact = ordered.filter((s) => s.status === 200 && !s.degraded && s.allowed);
  // the lowest of the last few (four workers answer a little out of order)
  const tail = exact.slice(-8).flatMap((s) => (s.remaining === null ? [] : [s.remaining]));
  const lastRemaining = tail.length ? Math.min(...tail) : limit;
  const span = (ordered.at(-1)?.at ?? 0) - (ordered[0]?.at ?? 0);
  // the bucket refills limit/window per ms meanwhile: those tokens were never "used"
  const refilled = Math.floor((span * limit) / windowMs);
  const counted = limit - lastRemaining + refilled;
  return {
    checks: ordered.length,
    non200: ordered.filter((s) => s.status !== 200).length,
    longestMs: Math.max(...ordered.map((s) => s.ms)),
    bound: boundFigures(ordered, stalls, timeoutMs + 50),
    unexplained: unexplained(ordered, stalls, timeoutMs + 50, killedAt),
    degradedMs: lastDegraded
      ? lastDegraded.at + lastDegraded.ms - Math.max(killedAt, (degraded[0] as Sample).at)
      : 0,
    degradedChecks: degraded.length,
    exactAfterMs: firstExact ? firstExact.at + firstExact.ms - killedAt : Number.POSITIVE_INFINITY,
    exactAdmitted: exact.length,
    timedOut,
    counted,
    overAdmittedAtLeast: Math.max(0, exact.length - counted),
    overAdmitted: Math.max(0, exact.length + timedOut - counted),
    slowest: [...ordered]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 5)
      .map((s) => `${s.ms.toFixed(0)} ms at ${(s.at - killedAt).toFixed(0)}`)
      .join(", "),
  };
}

/**
 * As the server timed them (request in, answer out): no single check waited beyond the
 * timeout + 50 ms on anything but its own process's stalled event loop (a loaded 2-core
 * test machine's scheduler can hold any process; the server tells those answers apart,
 * lib/check/loop-stalls.ts), and none waited on the dead Redis (its timeouts are 1 s).
 */
export function expectServerLatency(before: ServerLatency, after: ServerLatency): void {
  const count = after.count - before.count;
  const within100 = after.within100ms - before.within100ms;
  const starved = after.lateStarved - before.lateStarved;
  const waited = after.lateWaited - before.lateWaited;
  const handOffs = after.handOffs - before.handOffs;
  const forwarded = after.forwardedChecks - before.forwardedChecks;
  console.log(
    `  the server answered ${within100} of ${count} checks within 100 ms (its own timing); later: ${starved} while its event loop was stalled, ${waited} for any other reason`,
    `\n  connections handed to the app process ${handOffs} (the metrics and stall reads, each on its own), checks it passed back ${forwarded}`,
  );
  expect(Number.isFinite(waited) && Number.isFinite(starved)).toBe(true);
  expect(waited).toBe(0);
  // every check of the traffic was answered on the front's own connections: none took the
  // app process's event loop, which no stall watch of the front sees
  expect(forwarded).toBe(0);
  expect(within100 + starved).toBeGreaterThanOrEqual(count);
}

/** The answers the stalls do not excuse, for the printout: when, how long, what stalled. */
function unexplained(ordered: Sample[], stalls: Stalls, boundMs: number, killedAt: number): string {
  return ordered
    .filter((s) => excuseOf(s, stalls, boundMs) === "unexplained")
    .map((s) => {
      const client = coveredMs(stalls.client, s.sent, s.sent + s.ms);
      const both = coveredMs(stalls.both, s.sent, s.sent + s.ms);
      // the spans around it, in ms from when it was sent: c client, s server
      const near = (spans: readonly Span[], tag: string): string[] =>
        spans
          .filter(([start, end]) => end > s.sent - 30 && start < s.sent + s.ms + 30)
          .map(([start, end]) => `${tag}${(start - s.sent).toFixed(0)}..${(end - s.sent).toFixed(0)}`);
      const spans = [...near(stalls.clientRaw, "c"), ...near(stalls.serverRaw, "s")].join(" ");
      const steps = phasesText(s.phases, s.sentPerf);
      return `${s.ms.toFixed(0)} ms at ${(s.at - killedAt).toFixed(0)} (stalled: client ${client.toFixed(0)}, both ${both.toFixed(0)}; ${steps}; ${spans})`;
    })
    .join(", ");
}

export function print(topology: string, f: FailoverFigures): void {
  console.log(
    [
      `[failover] ${topology}: ${f.checks} checks, ${f.non200} not 200, longest answer ${f.longestMs.toFixed(0)} ms` +
        ` (slowest, sent at ms from the kill: ${f.slowest})`,
      `  as the client saw them: ${f.bound.overBound} beyond the timeout + 50 ms, excused by this process's own stalls ${f.bound.excusedByClient},` +
        ` by the server's ${f.bound.excusedByServer}, unexplained ${f.bound.unexplained}${f.unexplained ? `: ${f.unexplained}` : ""}`,
      `  degraded for ${f.degradedMs.toFixed(0)} ms (${f.degradedChecks} checks), exact decisions again ${f.exactAfterMs.toFixed(0)} ms after the kill`,
      `  over-admission: ${f.overAdmittedAtLeast} to ${f.overAdmitted} (exact admissions ${f.exactAdmitted}, remembered by Redis ${f.counted}, timed-out calls Redis may have counted ${f.timedOut})`,
    ].join("\n"),
  );
}
