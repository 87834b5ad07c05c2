// Phases (l) and (lx) of npm run bench: a check whose only limit is a tenant-wide
// limit counted locally (consistency: local, synced every 100 ms) next to the same limit
// exact, with the Redis script calls per check each made (EVALSHA/EVAL from INFO
// commandstats: check calls and sync calls, nothing else Sluice sends), and the heap bytes
// one local counter (limit x identity) costs, measured in this process.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Redis } from "ioredis";
import type { Principal } from "@/lib/shared/principal";
import type { Measured, Phase, PhaseSummary } from "./rounds";
import type { Row, Target } from "./report";
import { phaseRow } from "./rows";

const bench: Principal = { kind: "system", label: "bench" };
const LOCAL = "bench-local";
const EXACT = "bench-exact";

/** Two tenants on the bench plan: its tenant-wide limit alone applies to a keyless check. */
// Server modules ("server-only") are imported when used: index.ts registers their hook first.
export async function seedLocal(): Promise<void> {
  const { importConfig } = await import("@/lib/control/data/import-config");
  await importConfig(bench, {
    tenants: [
      {
        slug: LOCAL,
        plan: "bench",
        limits: [{ name: "tenant-rpm", consistency: "local", syncEvery: "100ms" }],
      },
      { slug: EXACT, plan: "bench" },
    ],
  });
}

async function scriptCalls(redis: Redis): Promise<number> {
  const info = await redis.info("commandstats");
  let calls = 0;
  for (const match of info.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+)/gm)) calls += Number(match[1]);
  return calls;
}

type AppPhase = (name: string, path: string, bodies: string[]) => Promise<Measured>;

/** The two phases; their notes say the Redis script calls per check. */
export function localPhases(appPhase: AppPhase, redisUrl: string): Phase[] {
  const measure = async (name: string, tenant: string): Promise<Measured> => {
    const redis = new Redis(redisUrl);
    try {
      const before = await scriptCalls(redis);
      const measured = await appPhase(name, "/api/check", [JSON.stringify({ tenant })]);
      // the warm-up second's checks count too
      const checks = measured.rps * (measured.seconds + 1);
      const perCheck = (await scriptCalls(redis)) - before;
      return { ...measured, note: `${measured.note}; ${(perCheck / checks).toFixed(4)} Redis calls/check` };
    } finally {
      redis.disconnect();
    }
  };
  return [
    { id: "l", run: () => measure("(l) local tenant-wide limit", LOCAL) },
    { id: "lx", run: () => measure("(lx) the same limit exact", EXACT) },
  ];
}

/** Heap bytes per local counter: 100,000 identities in a store, before and after, with GC. */
export async function bytesPerIdentity(count = 100_000): Promise<number> {
  const { CounterStore } = await import("@/lib/check/local/counter-store");
  const { CODE_SLIDING_WINDOW } = await import("@/lib/check/limiter/local/local-algorithms");
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  const rule = { code: CODE_SLIDING_WINDOW, L: 1_000, W: 60_000, B: 1_000 } as const;
  gc();
  const before = process.memoryUsage().heapUsed;
  const store = new CounterStore(count);
  for (let i = 0; i < count; i++) {
    // a key as long as a real one: tenant tag, limit id, identity
    store.use(
      `{t:cmb0tenant000000000000}:t%3Aper-user:s.user-${i.toString().padStart(8, "0")}:lc3`,
      "T",
      rule,
      100,
    );
  }
  for (const counter of store.dirty) counter.dirty = false;
  store.dirty.clear();
  gc();
  const bytes = (process.memoryUsage().heapUsed - before) / count;
  if (store.size !== count) throw new Error("bytesPerIdentity: the store lost counters");
  return bytes;
}

export function localRows(get: (id: string) => PhaseSummary, bytes: number): Row[] {
  return [
    phaseRow(get("l"), "(l)", "POST /api/check, 1 local tenant-wide limit (sync 100 ms)", undefined),
    phaseRow(get("lx"), "(lx)", "POST /api/check, the same limit exact", undefined),
  ].map((row) =>
    row.id === "(l)" ? { ...row, note: `${row.note}; ${Math.round(bytes)} B heap/identity` } : row,
  );
}

const callsOf = (note: string): number => Number(/([\d.]+) Redis calls\/check/.exec(note)?.[1] ?? NaN);

/** Local limits must pay off: (l) >= the deny path (e), >= 1.2x the bare endpoint (a), <= 0.05 calls. */
export function localTargets(l: Measured, e: Measured, a: Measured): Target[] {
  const calls = callsOf(l.note);
  return [
    { what: "(l) >= (e) in checks/s", value: `${(l.rps / e.rps).toFixed(2)}x`, ok: l.rps >= e.rps },
    { what: "(l) >= 1.2x (a)", value: `${(l.rps / a.rps).toFixed(2)}x`, ok: l.rps >= 1.2 * a.rps },
    { what: "(l) Redis calls/check <= 0.05 at 100 ms", value: calls.toFixed(4), ok: calls <= 0.05 },
  ];
}
