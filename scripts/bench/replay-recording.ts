// Row (u): what the what-if replay's per-subject series (lib/usage/subject-series.ts) add to
// usage recording, measured in the same run: two real UsageRecorders, series off (today's
// recording) and on, record the same checks and flush them to the bench Redis. They take
// turns a simulated second (PER_SECOND checks and one flush) at a time, the first of each
// pair alternating, so a change in the shared machine's load falls on both alike. Per check:
// the recorder's CPU (record() + building and sending the flush; process CPU time, which a
// preempted process does not accrue) and Redis's CPU for the flush (INFO cpu, to the µs,
// before and after each turn, less what INFO itself costs). Goal: at most 5% more (the
// replay's series must stay cheap enough to leave on).
// Alone: node --import tsx --import ./scripts/server-only-hook.mjs scripts/bench/replay-recording.ts
import { readFileSync } from "node:fs";
import { Redis } from "ioredis";
import type { Row, Target } from "./report";
import type { PhaseSummary } from "./rounds";
import type { UsageEvent } from "@/lib/usage/types";
import type { UsageRecorder } from "@/lib/usage/record/recorder";

const CHECKS = Number(process.env.BENCH_RECORDING_CHECKS ?? 200_000);
const PER_SECOND = 2_000; // simulated checks per second: one flush each
const TENANTS = 10;
/** at least this many rounds: one round is CHECKS checks through each recorder */
const MIN_ROUNDS = 5;

interface Cost {
  checks: number;
  nodeUs: number;
  redisUs: number;
}

/**
 * The checks of a round, built before it is timed and as /api/check hands them over: tenant,
 * key and route are the config index's shared strings, the subject a fresh string parsed from
 * each request's JSON body (not yet hashed, as in production; a template-built one would be a
 * rope, dearer to look up than any real subject). Each recorder gets its own copy: a string
 * hashed by one must not come to the other with its hash cached. Built a turn at a time: a
 * round's worth kept live would make every full GC mark it, charged to whichever recorder
 * happened to allocate (the app's heap holds no such pile of pending checks).
 */
const tenants = Array.from({ length: TENANTS }, (_, t) => `bench-t${t}`);
const keys = Array.from({ length: 20 }, (_, k) => `k${k}`);
const routes = Array.from({ length: 5 }, (_, r) => `GET /v1/r${r}`);

function checks(from: number): UsageEvent[] {
  const events: UsageEvent[] = [];
  for (let i = from; i < from + PER_SECOND; i++) {
    const body = JSON.parse(`{"subject":"203.0.113.${(i * 7) % 400}"}`) as { subject: string };
    events.push({
      tenantId: tenants[i % TENANTS]!,
      keyId: keys[i % 20]!,
      route: routes[i % 5]!,
      outcome: i % 17 === 0 ? "rejected" : "allowed",
      subject: body.subject,
    });
  }
  return events;
}

/**
 * The main thread's CPU time so far, µs, to the ns from the scheduler (schedstat): V8's
 * background GC threads, which run whenever either recorder's garbage makes them, are not
 * charged to the turn that happens to be running (process CPU time would; the spread of the
 * rounds then hid the difference).
 */
function mainThreadMicros(): number {
  const text = readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8");
  return Number(text.slice(0, text.indexOf(" "))) / 1_000;
}

/** Redis's CPU so far, µs (used_cpu_user + used_cpu_sys, which INFO gives to the µs). */
async function redisCpu(probe: Redis): Promise<number> {
  const info = await probe.info("cpu");
  const field = (name: string): number => Number(new RegExp(`^${name}:([0-9.]+)`, "m").exec(info)?.[1]);
  return Math.round((field("used_cpu_user") + field("used_cpu_sys")) * 1e6);
}

/** What one INFO costs Redis, to take off each turn's reading (the median of 50 readings). */
async function infoCost(probe: Redis): Promise<number> {
  const deltas: number[] = [];
  for (let i = 0; i < 50; i++) {
    const a = await redisCpu(probe);
    deltas.push((await redisCpu(probe)) - a);
  }
  return median(deltas);
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** A recorder of its own namespace and connection; `series`: with the replay's subject series. */
async function recorderFor(redisUrl: string, series: boolean, ns: string, clock: () => number) {
  const { UsageRecorder } = await import("@/lib/usage/record/recorder");
  const client = new Redis(redisUrl, { protocol: 2 });
  await client.ping();
  const recorder = new UsageRecorder({
    redis: () => client as never,
    ns,
    enabled: true,
    secondsRetentionMs: 3_600_000,
    clock,
    subjectSeries: series,
  });
  return { recorder, client };
}

/** One round: CHECKS checks through each recorder, a simulated second at a time, in turns. */
async function round(redisUrl: string, probe: Redis, info: number, r: number): Promise<[Cost, Cost]> {
  let now = Date.UTC(2026, 0, 1) + r * 3_600_000;
  const clock = (): number => now;
  const off = await recorderFor(redisUrl, false, `bench:u${r}off:`, clock);
  const on = await recorderFor(redisUrl, true, `bench:u${r}on:`, clock);
  const costs: [Cost, Cost] = [
    { checks: 0, nodeUs: 0, redisUs: 0 },
    { checks: 0, nodeUs: 0, redisUs: 0 },
  ];
  const turn = async (
    which: 0 | 1,
    recorder: UsageRecorder,
    list: UsageEvent[],
    start: number,
  ): Promise<void> => {
    const redis0 = await redisCpu(probe);
    const cpu0 = mainThreadMicros();
    for (let i = 0; i < PER_SECOND; i++) {
      now = start + (i * 1_000) / PER_SECOND;
      recorder.record(list[i]!);
    }
    await recorder.flush();
    const cpu = mainThreadMicros() - cpu0;
    const redis = (await redisCpu(probe)) - redis0 - info;
    costs[which].checks += PER_SECOND;
    costs[which].nodeUs += cpu;
    costs[which].redisUs += Math.max(0, redis);
  };
  for (let from = 0, second = 0; from + PER_SECOND <= CHECKS; from += PER_SECOND, second++) {
    const start = Date.UTC(2026, 0, 1) + r * 3_600_000 + second * 1_000;
    // the first of each pair alternates, so neither always runs right after the other
    const [forOff, forOn] = [checks(from), checks(from)];
    if (second % 2 === 0) {
      await turn(0, off.recorder, forOff, start);
      await turn(1, on.recorder, forOn, start);
    } else {
      await turn(1, on.recorder, forOn, start);
      await turn(0, off.recorder, forOff, start);
    }
  }
  for (const { recorder, client } of [off, on]) {
    await recorder.stop();
    client.disconnect();
  }
  await probe.flushdb();
  return costs;
}

export async function recordingRows(
  redisUrl: string,
  _redisPid: number,
  rounds: number,
): Promise<{ rows: Row[]; target: Target }> {
  const probe = new Redis(redisUrl, { protocol: 2 });
  const info = await infoCost(probe);
  await round(redisUrl, probe, info, 0); // JIT warm-up of both, not counted
  rounds = Math.max(rounds, MIN_ROUNDS);
  const off: Cost[] = [];
  const on: Cost[] = [];
  for (let r = 1; r <= rounds; r++) {
    const [a, b] = await round(redisUrl, probe, info, r);
    off.push(a);
    on.push(b);
  }
  probe.disconnect();
  const sum = (costs: Cost[]): Cost => ({
    checks: costs.reduce((s, c) => s + c.checks, 0),
    nodeUs: costs.reduce((s, c) => s + c.nodeUs, 0),
    redisUs: costs.reduce((s, c) => s + c.redisUs, 0),
  });
  const [a, b] = [sum(off), sum(on)];
  const perCheck = (c: Cost) => (c.nodeUs + c.redisUs) / c.checks;
  const extra = (perCheck(b) / perCheck(a) - 1) * 100;
  // the spread: each round's own figure, so one can see whether the total is steady
  const perRound = on.map((c, i) => (perCheck(c) / perCheck(off[i]!) - 1) * 100);
  const spread = `rounds ${Math.min(...perRound).toFixed(1)}..${Math.max(...perRound).toFixed(1)}%`;
  const row = (id: string, what: string, c: Cost, note: string): Row => ({
    id,
    what,
    // checks per CPU second of recorder and Redis together
    rps: 1e6 / perCheck(c),
    cps: 1e6 / perCheck(c),
    p50: NaN,
    p99: NaN,
    serverUs: c.nodeUs / c.checks,
    redisUs: c.redisUs / c.checks,
    clientUs: NaN,
    note,
  });
  const signed = (x: number): string => `${x >= 0 ? "+" : ""}${x.toFixed(1)}%`;
  const note = `in process, checks per CPU s; ${rounds} rounds of ${CHECKS.toLocaleString("en-US")} checks in turns of ${PER_SECOND}`;
  return {
    rows: [
      row("(u0)", "usage recording alone (record + flush), today's", a, note),
      row("(u1)", "usage recording + replay subject series", b, `${note}; ${signed(extra)} CPU (${spread})`),
    ],
    target: {
      what: "replay subject series cost <= 5% of usage recording ((u1) vs (u0), recorder + Redis CPU)",
      value: signed(extra),
      ok: extra <= 5,
    },
  };
}

/**
 * The series' cost per check against a whole check's: (u1) less (u0), recorder and Redis,
 * over (b)'s server and Redis CPU per check. The 5% target compares it with the recorder
 * alone (about 1.5 µs), less than one hash of a new subject string costs; this one says
 * what it adds to a check.
 */
export function seriesShareTarget(rows: readonly Row[], b: PhaseSummary): Target {
  const [u0, u1] = rows as [Row, Row];
  const extraUs = u1.serverUs + u1.redisUs - (u0.serverUs + u0.redisUs);
  const checkUs = (b.serverCpu + b.redisCpu) / b.requests;
  const share = (100 * extraUs) / checkUs;
  return {
    what: "replay subject series per check <= 1% of a check ((u1) - (u0) over (b)'s server + Redis CPU)",
    value: `${share.toFixed(2)}% (${extraUs.toFixed(3)} of ${checkUs.toFixed(1)} µs)`,
    ok: share <= 1,
  };
}

// Run alone: a Redis of its own on a free port, the rows and the target printed.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { freePort, stopAll } = await import("./processes");
  const { startBenchRedis } = await import("./bench-redis");
  const { printTable, printTargets } = await import("./report");
  // BENCH_REDIS_PORT: a fixed port for the bench's own Redis (else any free one)
  const port = Number(process.env.BENCH_REDIS_PORT ?? 0) || (await freePort());
  const redis = await startBenchRedis(port);
  try {
    const { rows, target } = await recordingRows(
      `redis://127.0.0.1:${port}`,
      redis.pid ?? 0,
      Number(process.env.BENCH_ROUNDS ?? 5),
    );
    printTable(rows, rows[0] as Row);
    printTargets([target]);
  } finally {
    await stopAll();
  }
}
