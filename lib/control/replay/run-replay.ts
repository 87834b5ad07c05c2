import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { redis, type RedisClient } from "@/lib/shared/redis/redis";
import { ConflictError } from "@/lib/control/errors/errors";
import { keyIdByName, keyNames, usageTenant } from "@/lib/control/data/usage/scope";
import { usageSettings } from "@/lib/usage/settings";
import { SUBJECTS_PER_MINUTE, TRACKED_PER_MINUTE, WRITE_EVERY_MS } from "@/lib/usage/subject-series";
import { wallNow } from "@/lib/shared/wall-clock";
import { readDemand } from "@/lib/control/replay/read-demand";
import { simulate } from "@/lib/control/replay/simulate";
import {
  MAX_CHECKS,
  MAX_FIELDS,
  MAX_SERIES,
  type ReplayQuery,
  type ReplayResult,
} from "@/lib/control/replay/types";

// The what-if replay of one limit in one tenant (docs/replay.md): who may read the tenant's
// usage may replay it (viewer and up; others get NotFound as for a tenant that does not
// exist). Reads are bounded by read-demand.ts, the model's work by simulate.ts.

export interface ReplayContext {
  client?: RedisClient;
  ns?: string;
  now?: number;
}

const STEP_MS = 60_000;
/** Replays running at once in this process: each may take its CPU budget (simulate.ts). */
const MAX_RUNNING = 2;
let running = 0;

async function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNNING)
    throw new ConflictError("Two replays are running on this server already; try again in a few seconds.");
  running++;
  try {
    return await work();
  } finally {
    running--;
  }
}

export async function runReplay(
  principal: Principal,
  query: ReplayQuery,
  ctx: ReplayContext = {},
): Promise<ReplayResult> {
  const tenant = await usageTenant(principal, query.tenant);
  const keyId = query.key === undefined ? undefined : await keyIdByName(tenant, query.key);
  const toMinute = Math.floor((ctx.now ?? wallNow()) / STEP_MS) + 1;
  const fromMinute = toMinute - query.minutes;
  const read = await readDemand(ctx.client ?? redis(), ctx.ns ?? usageSettings().ns, {
    tenantId: tenant.id,
    keyId,
    route: query.route,
    by: query.by,
    fromMinute,
    toMinute,
  });
  const sim = await oneAtATime(() =>
    simulate(read.demand, query.current, query.proposed, { stepMs: STEP_MS }),
  );
  const names = await keyNames(tenant.id);
  const points = [];
  for (let m = fromMinute; m < toMinute; m++)
    points.push(
      sim.points.get(m * STEP_MS) ?? { t: m * STEP_MS, checks: 0, currentRejected: 0, proposedRejected: 0 },
    );
  const totals = points.reduce(
    (sum, p) => ({
      checks: sum.checks + p.checks,
      currentRejected: sum.currentRejected + p.currentRejected,
      proposedRejected: sum.proposedRejected + p.proposedRejected,
    }),
    { checks: 0, currentRejected: 0, proposedRejected: 0 },
  );
  const truncated = sim.truncated || read.minutesSkipped > 0 || read.seriesLeftOut > 0;
  return {
    from: fromMinute * STEP_MS,
    to: toMinute * STEP_MS,
    stepMs: STEP_MS,
    source: query.by === "subject" ? "subjects" : "keys",
    points,
    totals,
    top: sim.rows.map((r) =>
      r.kind === "key" ? { ...r, name: names.get(r.name) ?? (r.name || "(no key)") } : r,
    ),
    bounds: {
      truncated,
      fieldsRead: read.fieldsRead,
      series: read.series,
      seriesLeftOut: read.seriesLeftOut,
      checksReplayed: sim.checks,
      unattributed: read.unattributed,
    },
    caveats: caveats(query, read.minutesSkipped, read.unattributed, sim.truncated, read.seriesLeftOut),
  };
}

function caveats(
  query: ReplayQuery,
  minutesSkipped: number,
  unattributed: number,
  stopped: boolean,
  leftOut: number,
): string[] {
  const out = [
    "Recorded counts are per second: a second's checks are replayed spread evenly over it.",
    "Every check is replayed at cost 1 (costs are not recorded).",
    "Checks other limits rejected count as demand; other limits are not replayed alongside this one.",
  ];
  if (query.by === "subject") {
    out.push(
      `Subjects are recorded per tenant and minute for the busiest ${SUBJECTS_PER_MINUTE} subjects on each server (of the first ${TRACKED_PER_MINUTE} seen), written every ${WRITE_EVERY_MS / 1_000} s; ${unattributed.toLocaleString("en-US")} checks of other subjects were not replayed.`,
    );
    if (query.key)
      out.push("Subject series are not split by key: every key's checks of a subject are replayed.");
  }
  if (minutesSkipped > 0)
    out.push(
      `The oldest ${minutesSkipped} minutes were not read: at most ${MAX_FIELDS.toLocaleString("en-US")} recorded fields are read.`,
    );
  if (leftOut > 0)
    out.push(`Only the ${MAX_SERIES} busiest counters were replayed; ${leftOut} quieter ones were left out.`);
  if (stopped)
    out.push(`The replay stopped after ${MAX_CHECKS.toLocaleString("en-US")} checks or its time budget.`);
  return out;
}
