// The full bench's table and targets (every phase run): the (f) and (k) measurements that
// need no rounds, then the rows, the targets and the batch ceiling note.
import type { BenchSetup } from "./seed-bench";
import { redisBenchmark } from "./redis-benchmark";
import { checkApiTargets, printTable, printTargets, type Row } from "./report";
import { phaseRow, redisRow } from "./rows";
import { bytesPerIdentity, localRows, localTargets } from "./local-limits";
import { listRows, listTargets } from "./access-lists";
import { clientRows } from "./client-rows";
import { seriesShareTarget } from "./replay-recording";
import { mixBudget, mixRows, mixTargets } from "./realistic-phases";
import { distinctRows, distinctTargets } from "./distinct-phases";
import { grpcRows, grpcTarget } from "./grpc-phases";
import { kindRows, kindTargets } from "./kind-costs";
import { calendarRows, calendarTarget } from "./calendar-quota";
import type { Measured, PhaseSummary } from "./rounds";
import type { Target } from "./report";

export interface ReportInput {
  summaries: Map<string, PhaseSummary>;
  redisPort: number;
  redisPid: number | undefined;
  setup: BenchSetup;
  appUrl: string;
  route: string;
  rounds: number;
  seconds: number;
  batch: number;
  /** (u0)/(u1): usage recording with and without the replay's subject series */
  recording: { rows: Row[]; target: Target } | null;
  noisy: (n: Measured, quiet: Measured) => Target;
  /** (aq)/(ah): another tenant's admin GET, quiet and under a hostile editor */
  admin: {
    rows: (get: (id: string) => PhaseSummary) => Row[];
    target: (ah: Measured, quiet: Measured) => Target;
  };
}

const log = (text: string) => console.log(`[bench] ${text}`);

export async function fullReport(input: ReportInput): Promise<void> {
  const { summaries, redisPort, setup, route: ROUTE, batch: BATCH, rounds: ROUNDS, seconds: SECONDS } = input;
  const token = setup.token;
  // imported here, as index.ts does: it reads the bench's environment when loaded
  const { hostileTarget } = await import("./hostile");
  const get = (id: string): PhaseSummary => summaries.get(id) as PhaseSummary;
  const [a, b, g, c, d, e, half, h] = (["a", "b", "g", "c", "d", "e", "half", "h"] as const).map(
    (id) => get(id).median,
  ) as [Measured, Measured, Measured, Measured, Measured, Measured, Measured, Measured];

  log("(f) redis-benchmark EVALSHA of the check script (3 limits), 50 clients");
  const f = await redisBenchmark(redisPort, input.redisPid, setup.lua, setup.evalsha);
  log(`(f') redis-benchmark EVALSHA of check-many.lua, ${BATCH} checks a call, 50 clients`);
  const fMany = await redisBenchmark(redisPort, input.redisPid, setup.luaMany, setup.evalshaMany, 5_000);

  log("(k) @sluice/client's check() against a raw fetch, and its local deny path");
  const allowed = { apiKey: setup.keys[0] ?? "", route: ROUTE };
  const kRows = await clientRows(
    input.appUrl,
    token,
    allowed,
    { apiKey: setup.overKey, route: ROUTE },
    ROUNDS,
  );

  const row = (id: string, phaseId: string, what: string, note?: string, perRequest = 1): Row =>
    phaseRow(get(phaseId), id, what, note, perRequest);
  const rows: Row[] = [
    row("(a)", "a", "bare node:http JSON endpoint (ceiling)", "parses the body, fixed answer"),
    row("(b)", "b", "POST /api/check, 3 limits"),
    row(
      "(g)",
      "g",
      "POST /api/check, 3 limits, usage recording off",
      "same build, SLUICE_USAGE_RECORDING=off",
    ),
    row("(c)", "c", `POST /api/check/batch, ${BATCH} checks/request, 20 conn.`, undefined, BATCH),
    row("(d)", "d", "rate-limiter-flexible, 3 RateLimiterRedis", "peer on node:http"),
    row("(e)", "e", "POST /api/check, key over its limit"),
    row("(b½)", "half", "POST /api/check at half (b)'s peak, 10 conn."),
    row("(h)", "h", "(b½) while hostile YAML and 5,000-route imports are sent"),
    row("(nq)", "nq", "POST /api/check, 500/s fixed, 10 conn., a quiet caller"),
    row("(n)", "n", "(nq) while another tenant sends 4 loops of 1,000-check batches"),
    ...input.admin.rows(get),
    ...localRows(get, await bytesPerIdentity()),
    ...listRows(get),
    ...calendarRows(get),
    ...kindRows(get),
    ...grpcRows(get),
    row("(w1)", "w1", "POST /api/check, SLUICE_WORKERS=1"),
    row("(w2)", "w2", "POST /api/check, SLUICE_WORKERS=2 (node:cluster)"),
    ...distinctRows(get),
    ...mixRows(get),
    redisRow(f, "(f)", "redis-benchmark EVALSHA, same script", "Redis alone, no HTTP"),
    redisRow(
      fMany,
      "(f')",
      `redis-benchmark EVALSHA, check-many of ${BATCH} checks`,
      "Redis alone: the ceiling of (c)",
      BATCH,
    ),
    ...kRows,
    ...(input.recording?.rows ?? []),
  ];
  console.log(
    `\nSluice check API benchmark: ${ROUNDS} rounds of every phase, ${SECONDS} s each (median round shown; CPU over all rounds), wrk 1 thread 50 connections, keep-alive (b½: autocannon at a fixed rate); ${new Date().toISOString()}`,
  );
  printTable(rows, rows[0] as Row);
  printTargets([
    ...checkApiTargets({ a, b, c, d, e, g, half }, BATCH),
    hostileTarget(h, half.p99),
    input.noisy(get("n").median, get("nq").median),
    input.admin.target(get("ah").median, get("aq").median),
    ...localTargets(get("l").median, e, a),
    ...listTargets(get("ln").median, get("lm").median, get("ld").median, e),
    calendarTarget(get),
    ...kindTargets(get),
    grpcTarget(get("rls").median, get("rlsh").median),
    ...distinctTargets(get),
    ...mixTargets(get),
    ...(input.recording ? [input.recording.target, seriesShareTarget(input.recording.rows, get("b"))] : []),
  ]);
  const ceiling = fMany.rps * BATCH;
  console.log(
    `\n(c) reaches ${((100 * c.rps * BATCH) / ceiling).toFixed(0)}% of (f'), Redis alone running the same ${BATCH}-check calls with nothing else on the machine;` +
      ` (f') itself is ${(ceiling / b.rps).toFixed(2)}x (b), so (c) >= 5x (b) is ${ceiling >= 5 * b.rps ? "within" : "beyond"} what this Redis can do here.`,
  );
  const budget = mixBudget(get);
  if (budget) console.log(`\n${budget}`);
}
