// The realistic mix's phases: the realistic mix (realistic-config.ts, drawn by realistic-mix.ts) sent
// to Sluice and to the peer doing the same work, in the same rounds as the identical check
// (b), with the front's RSS at the end of each Sluice round. BENCH_MIX_SECONDS lengthens
// only these phases (e.g. 180 to show the RSS bound holds over a long run).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { cpuMicros } from "./cpu";
import { load } from "./load";
import { describe, outcomes } from "./app-metrics";
import { freePort, httpReady, startProcess } from "./processes";
import { mixScript, oneMixCheckScript } from "./realistic-mix";
import type { SeededKey } from "./realistic-seed";
import type { Measured, Phase, PhaseSummary } from "./rounds";
import type { Row, Target } from "./report";
import { phaseRow } from "./rows";
import { mb, rss } from "./rss";

const MIX_SECONDS = Number(process.env.BENCH_MIX_SECONDS ?? process.env.BENCH_SECONDS ?? 4);
// The front's bound (docs/deployment.md, "Memory"): its caches are capped in entries and
// bytes and its heap by SLUICE_FRONT_HEAP_MB (the bench starts it as `npm start` does); the
// rest, about 100 MB, is the young generation, code and sockets. A heap this busy grows
// lazily towards its cap, so a short round shows less than a long run reaches (300 MB after
// 4 s, 324 after 90 s, 314-352 over ten minutes): the bound is the cap's, not a round's.
const FRONT_HEAP_MB = Number(process.env.SLUICE_FRONT_HEAP_MB ?? 512);
export const RSS_BOUND_BYTES = Number(process.env.BENCH_RSS_BOUND_MB ?? FRONT_HEAP_MB + 100) * 2 ** 20;

export interface MixContext {
  app: () => { url: string; pid: number | undefined };
  /** the same build with usage recording off ((g)'s server) */
  quiet?: () => { url: string; pid: number | undefined };
  redisPid: number | undefined;
  redisUrl: string;
  token: string;
  keys: SeededKey[];
}

/** Largest front RSS seen at the end of a Sluice mix round, and the RSS at its start. */
const rssSeen = { start: 0, end: 0 };

/** Redis's used_memory, bytes. */
async function redisMemory(redisUrl: string): Promise<number> {
  const client = new Redis(redisUrl, { protocol: 2, lazyConnect: true });
  try {
    await client.connect();
    return Number(/^used_memory:(\d+)/m.exec(await client.info("memory"))?.[1]);
  } finally {
    client.disconnect();
  }
}

async function measure(
  url: string,
  script: string,
  pid: number | undefined,
  redis: { pid: number | undefined; url: string },
): Promise<Measured> {
  const options = { url, bodies: [], connections: 50, script };
  await load({ ...options, seconds: 1 });
  const memory0 = await redisMemory(redis.url);
  const [server0, redis0] = [cpuMicros(pid), cpuMicros(redis.pid)];
  const result = await load({ ...options, seconds: MIX_SECONDS });
  const [server1, redis1] = [cpuMicros(pid), cpuMicros(redis.pid)];
  // what the round left in Redis: counters, and Sluice's usage counts (flushed each second)
  const grown = (await redisMemory(redis.url)) - memory0;
  return {
    ...result,
    serverCpu: server1 - server0,
    redisCpu: redis1 - redis0,
    note: `Redis memory ${grown >= 0 ? "+" : "-"}${mb(Math.abs(grown))} over the round`,
    seconds: MIX_SECONDS,
  };
}

/** Starts the peer for the mix and returns the two phases: "mix" (Sluice), "mix-peer". */
export async function mixPhases(context: MixContext): Promise<Phase[]> {
  const dir = mkdtempSync(join(tmpdir(), "sluice-mix-"));
  const keysFile = join(dir, "keys.json");
  writeFileSync(keysFile, JSON.stringify(context.keys));
  const peerPort = await freePort();
  const peer = await startProcess(
    "peer-mix",
    process.execPath,
    [
      "--import",
      "tsx",
      "scripts/bench/peer-realistic-server.ts",
      String(peerPort),
      context.redisUrl,
      keysFile,
    ],
    {},
    () => httpReady(`http://localhost:${peerPort}/`),
  );
  const apiKeys = context.keys.map((key) => key.apiKey);
  const quiet = context.quiet;
  return [
    sluiceMixPhase("mix", context, true),
    sluiceMixPhase("mix1", context, false, (apiKeys, token) =>
      oneMixCheckScript("/api/check", apiKeys[0] ?? "", token),
    ),
    ...(quiet ? [sluiceMixPhase("mixg", { ...context, app: quiet }, false)] : []),
    {
      id: "mix-peer",
      run: () =>
        measure(`http://localhost:${peerPort}/`, mixScript("/", apiKeys), peer.pid, {
          pid: context.redisPid,
          url: context.redisUrl,
        }),
    },
  ];
}

type ScriptOf = (apiKeys: readonly string[], token: string) => string;

/**
 * The mix (or `scriptOf`'s checks) sent to a Sluice app; `trackRss`: its RSS is the one
 * the bound is judged on.
 */
export function sluiceMixPhase(
  id: string,
  context: MixContext,
  trackRss: boolean,
  scriptOf: ScriptOf = (apiKeys, token) => mixScript("/api/check", apiKeys, token),
): Phase {
  const apiKeys = context.keys.map((key) => key.apiKey);
  return {
    id,
    run: async () => {
      const app = context.app();
      const before = await outcomes(app.url);
      const start = rss(app.pid).own;
      const script = scriptOf(apiKeys, context.token);
      const measured = await measure(`${app.url}/api/check`, script, app.pid, {
        pid: context.redisPid,
        url: context.redisUrl,
      });
      const end = rss(app.pid);
      if (trackRss && end.own > rssSeen.end) Object.assign(rssSeen, { start, end: end.own });
      const memory = `front RSS ${mb(start)} -> ${mb(end.own)} (with the app process ${mb(end.total)})`;
      return {
        ...measured,
        note: `${describe(before, await outcomes(app.url))}; ${memory}; ${measured.note}`,
      };
    },
  };
}

export function mixRows(get: (id: string) => PhaseSummary): Row[] {
  return [
    phaseRow(
      get("mix"),
      "(m)",
      "POST /api/check, realistic mix (Zipf: 100k subjects, 1k keys, 50 routes x 1k ids)",
    ),
    phaseRow(
      get("mix1"),
      "(mi)",
      "one check of (m) repeated (its 4 limits, one key, route and subject)",
      "the work per check of (m) without its variety: no misses, one set of counters",
    ),
    phaseRow(get("mixg"), "(mg)", "(m) with usage recording off", "same build, SLUICE_USAGE_RECORDING=off"),
    phaseRow(
      get("mix-peer"),
      "(m')",
      "rate-limiter-flexible, the same mix and limits",
      `peer on node:http; ${get("mix-peer").median.note}`,
    ),
  ];
}

export function mixTargets(get: (id: string) => PhaseSummary): Target[] {
  const [m, identical, peer] = [get("mix").median, get("b").median, get("mix-peer").median];
  const x = (p: number, q: number): string => `${(p / q).toFixed(2)}x`;
  return [
    { what: "(m) >= 0.8x (b)", value: x(m.rps, identical.rps), ok: m.rps >= 0.8 * identical.rps },
    { what: "(m) >= 2x (m')", value: x(m.rps, peer.rps), ok: m.rps >= 2 * peer.rps },
    {
      what: `front RSS after (m) <= heap cap + 100 MB = ${mb(RSS_BOUND_BYTES)} (${MIX_SECONDS} s a round)`,
      value: `${mb(rssSeen.start)} -> ${mb(rssSeen.end)}`,
      ok: rssSeen.end <= RSS_BOUND_BYTES,
    },
  ];
}

/**
 * What (m) >= 0.8x (b) leaves the front, on a machine where the front, Redis and wrk share
 * the cores: checks/s is about the cores over the CPU a check costs all three, so the goal
 * holds only when (m)'s total is at most 1.25x (b)'s. Take away what Redis and wrk spent on
 * (m), and the rest is the front's budget, set beside what the front spent on (m) and on
 * (mi), the same checks with no variety (its cheapest case: every check from its caches).
 */
export function mixBudget(get: (id: string) => PhaseSummary): string {
  // the table's own CPU per check (phaseRow), so the line and the rows agree
  const [m, b, mi] = ["mix", "b", "mix1"].map((id) => phaseRow(get(id), id, id)) as [Row, Row, Row];
  if (![m.clientUs, b.clientUs].every(Number.isFinite)) return "";
  const total = b.serverUs + b.redisUs + b.clientUs;
  const budget = 1.25 * total - m.redisUs - m.clientUs;
  const us = (n: number): string => `${n.toFixed(1)} µs`;
  return (
    `(m) >= 0.8x (b) needs (m)'s CPU a check (front + Redis + wrk) within 1.25x (b)'s ${us(total)}:` +
    ` Redis and wrk took ${us(m.redisUs + m.clientUs)} of it on (m), which leaves the front ${us(budget)};` +
    ` the front spent ${us(m.serverUs)} on (m) and ${us(mi.serverUs)} on (mi), the same checks with no variety.`
  );
}
