// Row (u): what the what-if replay's per-subject series (lib/usage/subject-series.ts) add to
// usage recording, measured in the same run: the real UsageRecorder records the same checks
// and flushes them to the bench Redis, with the series off (today's recording) and on, in
// alternating rounds. Per check: the recorder's CPU (record() + building and sending the
// flush) and Redis's CPU for the flush. Goal (issue 18): at most 5% more than today's.
// Alone: node --import tsx --import ./scripts/server-only-hook.mjs scripts/bench/replay-recording.ts
import { Redis } from "ioredis";
import type { Row, Target } from "./report";
import { cpuMicros } from "./cpu";
import type { UsageEvent } from "@/lib/usage/types";

const CHECKS = Number(process.env.BENCH_RECORDING_CHECKS ?? 200_000);
const PER_SECOND = 2_000; // simulated checks per second: one flush each
const TENANTS = 10;
/** at least this many rounds of each: one round is half a second, and the machine is shared */
const MIN_ROUNDS = 9;

interface Cost {
  checks: number;
  wallMs: number;
  nodeUs: number;
  redisUs: number;
}

/**
 * The checks of a round, built before it is timed and as /api/check hands them over: tenant,
 * key and route are the config index's shared strings, the subject a fresh string parsed from
 * each request's JSON body (not yet hashed, as in production; a template-built one would be a
 * rope, dearer to look up than any real subject).
 */
function checks(): UsageEvent[] {
  const tenants = Array.from({ length: TENANTS }, (_, t) => `bench-t${t}`);
  const keys = Array.from({ length: 20 }, (_, k) => `k${k}`);
  const routes = Array.from({ length: 5 }, (_, r) => `GET /v1/r${r}`);
  const events: UsageEvent[] = [];
  for (let i = 0; i < CHECKS; i++) {
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

/** One round: CHECKS checks over 10 tenants, 20 keys, 5 routes and 400 subjects. */
async function round(redisUrl: string, redisPid: number, series: boolean, ns: string): Promise<Cost> {
  const { UsageRecorder } = await import("@/lib/usage/recorder");
  const client = new Redis(redisUrl, { protocol: 2 });
  let now = Date.UTC(2026, 0, 1);
  const recorder = new UsageRecorder({
    redis: () => client as never,
    ns,
    enabled: true,
    secondsRetentionMs: 3_600_000,
    clock: () => now,
    subjectSeries: series,
  });
  const events = checks();
  await client.ping();
  const [cpu0, redis0, t0] = [process.cpuUsage(), cpuMicros(redisPid), performance.now()];
  for (let i = 0; i < CHECKS; i++) {
    recorder.record(events[i]!);
    now += 1_000 / PER_SECOND;
    if (i % PER_SECOND === PER_SECOND - 1) await recorder.flush();
  }
  await recorder.flush();
  const cpu = process.cpuUsage(cpu0);
  const cost = {
    checks: CHECKS,
    wallMs: performance.now() - t0,
    nodeUs: cpu.user + cpu.system,
    redisUs: cpuMicros(redisPid) - redis0,
  };
  await client.flushdb();
  client.disconnect();
  return cost;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

export async function recordingRows(
  redisUrl: string,
  redisPid: number,
  rounds: number,
): Promise<{ rows: Row[]; target: Target }> {
  const off: Cost[] = [];
  const on: Cost[] = [];
  // JIT warm-up of both, not counted
  await round(redisUrl, redisPid, false, "bench:warm0:");
  await round(redisUrl, redisPid, true, "bench:warm1:");
  rounds = Math.max(rounds, MIN_ROUNDS);
  for (let r = 0; r < rounds; r++) {
    // alternate which goes first, so drift in the machine's load hits both
    const order = r % 2 === 0 ? [false, true] : [true, false];
    for (const series of order)
      (series ? on : off).push(await round(redisUrl, redisPid, series, `bench:u${r}:`));
  }
  const summary = (costs: Cost[]) => ({
    nodeUs: median(costs.map((c) => c.nodeUs / c.checks)),
    redisUs: median(costs.map((c) => c.redisUs / c.checks)),
    cps: median(costs.map((c) => (c.checks * 1_000) / c.wallMs)),
  });
  const [a, b] = [summary(off), summary(on)];
  const row = (id: string, what: string, s: typeof a, note: string): Row => ({
    id,
    what,
    rps: s.cps,
    cps: s.cps,
    p50: NaN,
    p99: NaN,
    serverUs: s.nodeUs,
    redisUs: s.redisUs,
    note,
  });
  // the extra of each round's pair (run back to back), then their median: a load change on the
  // shared machine between pairs moves both halves of a pair, not the ratio
  const total = (c: Cost) => (c.nodeUs + c.redisUs) / c.checks;
  const extra = median(on.map((c, r) => (total(c) / total(off[r]!) - 1) * 100));
  const note = `in process, ${CHECKS.toLocaleString("en-US")} checks/round, median of ${rounds} rounds`;
  return {
    rows: [
      row("(u0)", "usage recording alone (record + flush), today's", a, note),
      row(
        "(u1)",
        "usage recording + replay subject series",
        b,
        `${note}; ${extra >= 0 ? "+" : ""}${extra.toFixed(1)}% recorder+Redis CPU (median of the rounds' pairs)`,
      ),
    ],
    target: {
      what: "replay subject series cost <= 5% of usage recording ((u1) vs (u0), recorder + Redis CPU)",
      value: `${extra >= 0 ? "+" : ""}${extra.toFixed(1)}%`,
      ok: extra <= 5,
    },
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
