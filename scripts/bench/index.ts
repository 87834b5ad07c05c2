// npm run bench: the enforcement API against its ceiling and a peer, side by side in one
// run (the same machine's load falls on all of them). Brings up its own Redis, database
// "<name>_bench" (next to DATABASE_URL's, default
// postgresql://postgres@127.0.0.1:54329/sluice) and server processes on spare ports,
// measures with wrk (50 keep-alive connections; autocannon for the fixed-rate phase), and
// cleans up.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { freshBenchDatabase } from "./database";
import { startAppPair } from "./app-server";
import { BASE_DIR, basePhases, interleave } from "./ab-base";
import { loadPhases } from "./load-phase";
import { fullReport } from "./full-report";
import { runRounds, type Phase } from "./rounds";
import { freePort, stopAll, stopAllOnSignals } from "./processes";
import { startSideServers } from "./side-servers";
import { startBenchRedis } from "./bench-redis";
import { localPhases, seedLocal } from "./local-limits";
import { listPhases, seedLists } from "./access-lists";
import { calendarPhases, seedCalendar } from "./calendar-quota";
import { kindPhases, seedKinds } from "./kind-costs";
import { partialReport } from "./partial-report";
import { workerPhases } from "./workers";
import { mixPhases } from "./realistic-phases";
import { distinctPhases } from "./distinct-phases";
import { recordingRows } from "./replay-recording";
import { grpcPhases, seedGrpc } from "./grpc-phases";

// Server modules import "server-only", which throws outside Next: register the hook first.
await import(new URL("../server-only-hook.mjs", import.meta.url).href);

const run = promisify(execFile);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const BATCH = 50;
// BENCH_PHASES=b,c: only those phases (while working on one; no targets, no (f)).
const ONLY = process.env.BENCH_PHASES ? new Set(process.env.BENCH_PHASES.split(",")) : null;
const log = (text: string) => console.log(`[bench] ${text}`);

async function main(): Promise<void> {
  const base = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:54329/sluice";
  // BENCH_SKIP_BUILD=1: use the .next as it is (e.g. while someone else is building).
  if (process.env.BENCH_SKIP_BUILD !== "1") {
    log("building the app if its sources changed");
    await run("bash", ["scripts/build-if-changed.sh"], { maxBuffer: 1 << 24 });
  }

  const redisPort = await freePort();
  const redisUrl = `redis://127.0.0.1:${redisPort}`;
  const redisServer = await startBenchRedis(redisPort);
  log(`redis on ${redisPort}; preparing the bench database`);
  const databaseUrl = await freshBenchDatabase(base);
  // The DAL reads these through lib/shared/env on first use.
  // (lm) and (ld) seed a tenant list of 100,000 entries, past the default cap
  Object.assign(process.env, {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: "",
    SLUICE_MAX_LIST_ENTRIES_PER_TENANT: "100000",
  });
  const { seedBench, ROUTE, ITEMS_PATTERN } = await import("./seed-bench");
  const setup = await seedBench(BATCH);
  await seedLocal();
  await seedLists();
  await seedCalendar();
  await seedKinds();
  await seedGrpc();
  const { prepareHostile, hostilePhase } = await import("./hostile");
  const hostileSetup = await prepareHostile();
  const { prepareNoisy, noisyPhases, noisyTarget } = await import("./noisy");
  const floodToken = await prepareNoisy();
  const { prepareAdmin, adminPhases, adminRows, adminTarget } = await import("./admin-fairness");
  const adminSetup = await prepareAdmin();
  const mixKeys = await (await import("./realistic-seed")).seedRealistic();

  const serverEnv = { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, NODE_ENV: "production" };
  // The app, and the same server with usage recording off, started afresh every round.
  let { app, quiet } = await startAppPair(0, serverEnv, setup.token);
  log("starting the bare server and the peer");
  const { bare, peer } = await startSideServers(redisUrl);

  const checkBodies = setup.keys.map((apiKey) => JSON.stringify({ apiKey, route: ROUTE }));
  const batchBodies = Array.from({ length: 10 }, (_, b) =>
    JSON.stringify({
      checks: Array.from({ length: BATCH }, (_, i) => ({
        apiKey: setup.keys[(b * BATCH + i) % setup.keys.length],
        route: ROUTE,
      })),
    }),
  );
  const overBody = JSON.stringify({ apiKey: setup.overKey, route: ROUTE });
  const token = setup.token;

  const { phase, appPhaseOn } = loadPhases({
    token,
    redisPid: redisServer.pid,
    defaultSeconds: SECONDS,
    log,
  });
  const appPhase = appPhaseOn(() => app);

  // The over-limit key is spent once; every (e) round then finds it over its limit.
  await fetch(`${app.url}/api/check`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: overBody,
  });
  let peak = 0; // (b)'s req/s in the current round: (b½) runs at half of it
  const mixContext = {
    app: () => app,
    quiet: () => quiet,
    redisPid: redisServer.pid,
    redisUrl,
    token,
    keys: mixKeys,
  };
  const mixes = await mixPhases(mixContext);
  const env = serverEnv;
  const distinct = { apiKeys: setup.keys, route: ROUTE, itemsRoute: ITEMS_PATTERN.replace(":id", "$id") };
  const baseBuild = await basePhases({
    env,
    token,
    appPhaseOn,
    checkBodies,
    overBody,
    mix: mixContext,
    distinct,
  });
  const phases: Phase[] = [
    {
      id: "a",
      run: () => phase("(a) bare node:http", `http://localhost:${bare.port}/`, checkBodies, bare.pid),
    },
    {
      id: "b",
      run: async () => {
        const measured = await appPhase("(b) /api/check", "/api/check", checkBodies);
        peak = measured.rps;
        return measured;
      },
    },
    {
      id: "g",
      run: () =>
        phase("(g) /api/check, usage recording off", `${quiet.url}/api/check`, checkBodies, quiet.pid),
    },
    // 20 connections x 50 checks: 1000 checks in flight. With 10 the phase measured its own
    // latency (1,150-1,500 req/s, the server and Redis both below a core); 20 and 50 both
    // saturate the machine (~1,750 req/s).
    { id: "c", run: () => appPhase("(c) /api/check/batch", "/api/check/batch", batchBodies, undefined, 20) },
    {
      id: "d",
      run: () => phase("(d) rate-limiter-flexible", `http://localhost:${peer.port}/`, checkBodies, peer.pid),
    },
    ...mixes,
    ...distinctPhases(
      (name, path, bodies, script) => appPhase(name, path, bodies, undefined, undefined, undefined, script),
      distinct.apiKeys,
      distinct.route,
      distinct.itemsRoute,
      token,
    ),
    { id: "e", run: () => appPhase("(e) key over its limit", "/api/check", [overBody]) },
    // At a fixed rate autocannon releases each connection's requests in bursts; 10 connections
    // keep those bursts small, so the p99 is the server's and not the pacing's.
    {
      id: "half",
      run: () => appPhase("(b) at half its peak", "/api/check", checkBodies, Math.round(peak / 2), 10),
    },
    hostilePhase({
      appPhase,
      appUrl: () => app.url,
      setup: hostileSetup,
      bodies: checkBodies,
      peak: () => peak,
    }),
    // another caller's single checks alone (nq) and under one tenant's batch flood (n)
    ...noisyPhases({ appPhase, appUrl: () => app.url, floodToken, bodies: checkBodies, route: ROUTE }),
    // another tenant's admin GET, alone (aq) and under a hostile editor's documents (ah)
    ...adminPhases(() => app, adminSetup, log),
    ...localPhases(appPhase, redisUrl),
    ...listPhases(appPhase, redisUrl),
    // a calendar quota beside a plain fixed window (docs/algorithms.md, calendar quotas)
    ...calendarPhases(appPhase),
    // each limit kind beside a plain keyless check; a penalty's block beside (e)
    ...kindPhases(appPhase, () => app.url, token),
    // Envoy's ShouldRateLimit (3 descriptors) against /api/check making the same checks
    ...grpcPhases({ app: () => app, appPhase, token, redisPid: redisServer.pid, seconds: SECONDS, log }),
    ...workerPhases({
      env: serverEnv,
      token,
      bodies: checkBodies,
      seconds: SECONDS,
      redisPid: redisServer.pid,
    }),
  ];
  const summaries = await runRounds(
    interleave(phases, baseBuild.phases).filter((p) => !ONLY || ONLY.has(p.id)),
    ROUNDS,
    async (round) => {
      await baseBuild.restart(round);
      if (round === 0) return;
      await Promise.all([app.stop(), quiet.stop()]);
      ({ app, quiet } = await startAppPair(round, serverEnv, setup.token));
    },
    // with a base build, (b) and its twin take turns going first (after a restart the first
    // phase shares the CPU with the new processes still warming up)
    BASE_DIR === null ? ["b", "g"] : ["b", "b@base"],
  );
  // (u): in process against the bench Redis, recording with and without the replay's series
  const recording =
    !ONLY || ONLY.has("u") ? await recordingRows(redisUrl, redisServer.pid ?? 0, ROUNDS) : null;
  if (ONLY) {
    partialReport({ summaries, recording, noisyTarget, admin: { rows: adminRows, target: adminTarget } });
    return;
  }
  await fullReport({
    summaries,
    redisPort,
    redisPid: redisServer.pid,
    setup,
    appUrl: app.url,
    route: ROUTE,
    rounds: ROUNDS,
    seconds: SECONDS,
    batch: BATCH,
    recording,
    noisy: noisyTarget,
    admin: { rows: adminRows, target: adminTarget },
  });
}

stopAllOnSignals();

try {
  await main();
} finally {
  // the clients before the servers: a Redis stopped under its client left it retrying,
  // printing connection errors after the table
  const { closeDb } = await import("@/lib/control/data/db");
  const { closeRedis } = await import("@/lib/shared/redis/redis");
  await Promise.allSettled([closeDb(), closeRedis()]);
  await stopAll();
}
