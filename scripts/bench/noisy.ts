// Phases (nq) and (n), the noisy neighbour: one tenant's service token (scoped to that
// tenant) sends 4 parallel loops of 1,000-check batches while another caller's single
// checks run at a fixed, modest rate; (nq) is the same single checks with no flood, right
// before. The goal: the quiet caller's p99 under the flood within 2x its quiet p99, with no
// failed request, and the flood the one slowed (its checks/s) or refused (429).
import type { Principal } from "@/lib/shared/principal";
import { createServiceToken } from "@/lib/control/data/tokens";
import { importConfig } from "@/lib/control/data/import-config";
import { startChildLoad, type ChildLoad } from "./child-load";
import type { Target } from "./report";
import type { AppPhase } from "./ab-base";
import type { Phase } from "./rounds";

const QUIET_RATE = 500;
const NOISY_SECONDS = Number(process.env.BENCH_NOISY_SECONDS ?? 8);

const bench: Principal = { kind: "system", label: "bench" };
export const FLOOD_TENANT = "bench-flood";

/** The flooding tenant (the bench plan's limits) and a service token scoped to it. */
export async function prepareNoisy(): Promise<string> {
  await importConfig(bench, { tenants: [{ slug: FLOOD_TENANT, plan: "bench" }] });
  const { token } = await createServiceToken(bench, { name: "bench-flood", tenants: [FLOOD_TENANT] });
  return token;
}

/** The flood, from its own process (noisy-load.ts, see child-load.ts). */
export function startFlood(appUrl: string, token: string, route: string): ChildLoad {
  return startChildLoad("scripts/bench/noisy-load.ts", [appUrl, token, FLOOD_TENANT, route]);
}

export interface NoisyContext {
  appPhase: AppPhase;
  appUrl: () => string;
  floodToken: string;
  /** the quiet caller's check bodies */
  bodies: string[];
  route: string;
}

/** (nq): the quiet caller's checks at a fixed rate, 10 connections; (n): the same under the flood. */
export function noisyPhases(context: NoisyContext): Phase[] {
  const { appPhase, bodies } = context;
  const quiet = (name: string) => appPhase(name, "/api/check", bodies, QUIET_RATE, 10, NOISY_SECONDS);
  return [
    { id: "nq", run: () => quiet("(nq) 500 checks/s of a quiet caller") },
    {
      id: "n",
      run: async () => {
        const flood = startFlood(context.appUrl(), context.floodToken, context.route);
        const measured = await quiet("(n) (nq) while another tenant floods with batches");
        return {
          ...measured,
          note: `${measured.note}; max ${measured.max ?? "?"} ms; ${await flood.stop()}`,
        };
      },
    },
  ];
}

/** The isolation goal: within 2x the quiet p99, and no failed request of the quiet caller. */
export function noisyTarget(n: { p99: number; failures: number }, quiet: { p99: number }): Target {
  return {
    what: "p99 of (n) (another tenant's batch flood) <= 2x (nq)'s, 0 errors",
    value: `${n.p99.toFixed(2)} ms (quiet (nq): ${quiet.p99.toFixed(2)} ms, ${(n.p99 / quiet.p99).toFixed(2)}x), ${n.failures} errors`,
    ok: n.p99 <= 2 * quiet.p99 && n.failures === 0,
  };
}
