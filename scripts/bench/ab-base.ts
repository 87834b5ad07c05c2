// An A/B comparison in one run: BENCH_BASE_DIR=<another worktree, built with
// `npm run build`> runs (b), (g), (e), (m), (s1) and (s2) against that build too, in the same
// rounds, as "b@base", "g@base", "e@base", "mix@base", "s1@base", "s2@base". Both builds share the Redis, database and
// seed; each round starts both pairs afresh. Two builds compared in separate runs on this
// shared machine differ by more than the change being measured; here a slow stretch hits both.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { startAppPair, type App } from "./app-server";
import { sluiceMixPhase, type MixContext } from "./realistic-phases";
import { distinctPhases } from "./distinct-phases";
import type { Measured, Phase } from "./rounds";

export const BASE_DIR = process.env.BENCH_BASE_DIR ?? null;

/** A load phase against an app: bodies in turn, or a wrk `script` of its own. */
export type AppPhase = (
  name: string,
  path: string,
  bodies: string[],
  rate?: number,
  connections?: number,
  seconds?: number,
  script?: string,
) => Promise<Measured>;

export interface BaseContext {
  env: Record<string, string>;
  token: string;
  /** the bench's app phase, measured on the given app */
  appPhaseOn: (target: () => App) => AppPhase;
  checkBodies: string[];
  overBody: string;
  mix: MixContext;
  /** (s1), (s2): the identical check's keys and routes (distinct-phases.ts) */
  distinct: { apiKeys: string[]; route: string; itemsRoute: string };
}

export interface BaseBuild {
  phases: Phase[];
  /** fresh processes for round `round` (the main pair's turn order) */
  restart(round: number): Promise<void>;
}

/** The base build's phases, or none without BENCH_BASE_DIR. */
export async function basePhases(context: BaseContext): Promise<BaseBuild> {
  if (BASE_DIR === null) return { phases: [], restart: async () => undefined };
  if (!existsSync(join(BASE_DIR, ".next/sluice/server.mjs")))
    throw new Error(`BENCH_BASE_DIR=${BASE_DIR} has no build: run npm run build there first`);
  const start = () => startAppPair(0, context.env, context.token, BASE_DIR);
  let pair = await start();
  const on = (which: "app" | "quiet") => context.appPhaseOn(() => pair[which]);
  const { checkBodies, overBody } = context;
  const mix = { ...context.mix, app: () => pair.app };
  return {
    phases: [
      { id: "b@base", run: () => on("app")("(b) base build", "/api/check", checkBodies) },
      { id: "g@base", run: () => on("quiet")("(g) base build", "/api/check", checkBodies) },
      { id: "e@base", run: () => on("app")("(e) base build", "/api/check", [overBody]) },
      sluiceMixPhase("mix@base", mix, false),
      ...distinctPhases(
        (name, path, bodies, script) =>
          on("app")(name, path, bodies, undefined, undefined, undefined, script),
        context.distinct.apiKeys,
        context.distinct.route,
        context.distinct.itemsRoute,
        context.token,
        "@base",
      ),
    ],
    restart: async (round) => {
      if (round === 0) return;
      await Promise.all([pair.app.stop(), pair.quiet.stop()]);
      pair = await start();
    },
  };
}

/** The phases with each base phase ("x@base") right after its own ("x"), so both see one stretch. */
export function interleave(phases: readonly Phase[], base: readonly Phase[]): Phase[] {
  const out: Phase[] = [];
  for (const phase of phases) {
    out.push(phase);
    const twin = base.find((b) => b.id === `${phase.id}@base`);
    if (twin) out.push(twin);
  }
  return out;
}
