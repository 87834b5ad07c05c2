// Phase (h): checks at half their peak while the control plane is attacked and busy (the
// check path must not feel the control plane): a viewer's admin token sends a YAML body of
// a million nested "[" (refused 403 before any parse) over and over, and an operator
// imports a 5,000-route tenant (~690 KB) again and again, each import changing every route.
// Its p99 is reported beside (b½)'s, the same load on a quiet control plane.
import type { Principal } from "@/lib/shared/principal";
import { createAdminToken } from "@/lib/control/data/tokens";
import { importConfig } from "@/lib/control/data/import-config";
import { startChildLoad, type ChildLoad } from "./child-load";
import type { Target } from "./report";
import type { AppPhase } from "./ab-base";
import type { Phase } from "./rounds";

const bench: Principal = { kind: "system", label: "bench" };
const BIG_TENANT = "bench-big";

export interface HostileSetup {
  viewer: string;
  operator: string;
}

/** A viewer token of the bench tenant, an operator token, and the tenant the imports rewrite. */
export async function prepareHostile(): Promise<HostileSetup> {
  await importConfig(bench, { tenants: [{ slug: BIG_TENANT, plan: "bench" }] });
  const viewer = await createAdminToken(bench, { name: "bench-viewer", role: "viewer", tenant: "bench" });
  const operator = await createAdminToken(bench, { name: "bench-operator", role: "owner" });
  return { viewer: viewer.token, operator: operator.token };
}

/** The hostile admin load, from its own process (hostile-load.ts, see child-load.ts). */
export function startHostileLoad(appUrl: string, tokens: HostileSetup): ChildLoad {
  return startChildLoad("scripts/bench/hostile-load.ts", [appUrl, tokens.viewer, tokens.operator]);
}

export interface HostileContext {
  appPhase: AppPhase;
  appUrl: () => string;
  setup: HostileSetup;
  bodies: string[];
  /** (b)'s req/s in this round: (h) runs at half of it */
  peak: () => number;
}

/** (h): (b½)'s load while the hostile admin load runs. */
export function hostilePhase(context: HostileContext): Phase {
  return {
    id: "h",
    run: async () => {
      const hostile = startHostileLoad(context.appUrl(), context.setup);
      const rate = Math.round(context.peak() / 2);
      // long enough to take in a whole import: parse, validation, writes, publish, swap
      const seconds = Number(process.env.BENCH_HOSTILE_SECONDS ?? 15);
      const name = "(h) half peak, hostile admin load";
      const measured = await context.appPhase(name, "/api/check", context.bodies, rate, 10, seconds);
      return {
        ...measured,
        note: `${measured.note}; max ${measured.max ?? "?"} ms; ${await hostile.stop()}`,
      };
    },
  };
}

/** The goal: under the check timeout, with no failed request. */
export function hostileTarget(h: { p99: number; failures: number }, quietP99: number): Target {
  return {
    what: "p99 of (h) (hostile admin load) < 50 ms, 0 errors",
    value: `${h.p99.toFixed(2)} ms (quiet (b½): ${quietP99.toFixed(2)} ms), ${h.failures} errors`,
    ok: h.p99 < 50 && h.failures === 0,
  };
}
