// Phases (kp), (kcn), (kc), (kpa), (kpb), (kaj) and (kaa) of npm run bench: what each limit
// kind of docs/algorithms.md costs a check, beside a plain one in the same rounds. Every
// check is keyless ({ tenant }) against a tenant of the bench plan whose tenant-wide limit is
// a fixed window of a day (kp, the plain twin of calendar's (qx)); the others add one kind:
//   (kcn) a concurrency limit too, leases never released (they expire after 2 s)
//   (kc)  the same, each lease released by the next request: check + release pairs
//   (kpa) the fixed window carrying a penalty, every check allowed
//   (kpb) a blocked identity: its penalty's block answered from memory, beside (e)
//   (kaj) checks sent with adjustable: true (each answers a checkId)
//   (kaa) the same, each check refunded by the next request: check + adjust pairs
import type { Principal } from "@/lib/shared/principal";
import type { Measured, Phase, PhaseSummary } from "./rounds";
import type { Row, Target } from "./report";
import { phaseRow } from "./rows";
import { pairScript } from "./pair-script";

const bench: Principal = { kind: "system", label: "bench" };
const LIMIT = 1_000_000_000;
const plainLimit = { name: "tenant-rpm", algorithm: "fixed_window", limit: LIMIT, window: "1d" };
const TENANTS = {
  plain: "bench-kind-plain",
  leases: "bench-kind-leases",
  penalty: "bench-kind-penalty",
  blocked: "bench-kind-blocked",
} as const;

// Server modules ("server-only") are imported when used: index.ts registers their hook first.
export async function seedKinds(): Promise<void> {
  const { importConfig } = await import("@/lib/control/data/import-config");
  await importConfig(bench, {
    tenants: [
      { slug: TENANTS.plain, plan: "bench", limits: [plainLimit] },
      {
        slug: TENANTS.leases,
        plan: "bench",
        limits: [
          plainLimit,
          { name: "in-flight", by: "tenant", algorithm: "concurrency", limit: LIMIT, window: "2s" },
        ],
      },
      { slug: TENANTS.penalty, plan: "bench", limits: [{ ...plainLimit, penalty: { block: "1d" } }] },
      // one check a day: the second check denies and starts a block of a day
      {
        slug: TENANTS.blocked,
        plan: "bench",
        limits: [{ ...plainLimit, limit: 1, penalty: { block: "1d" } }],
      },
    ],
  });
}

type AppPhase = (
  name: string,
  path: string,
  bodies: string[],
  rate?: number,
  connections?: number,
  seconds?: number,
  script?: string,
) => Promise<Measured>;

const body = (tenant: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ tenant, ...extra });

/** Starts the block of (kpb) (the first check passes, the second denies): idempotent. */
async function block(appUrl: string, token: string): Promise<void> {
  for (let i = 0; i < 2; i++)
    await fetch(`${appUrl}/api/check`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: body(TENANTS.blocked),
    });
}

// (kp) first: the first phase after the app's restart each round runs on a colder process
export function kindPhases(appPhase: AppPhase, appUrl: () => string, token: string): Phase[] {
  const one = (name: string, text: string) => appPhase(name, "/api/check", [text]);
  const pairs = (name: string, script: string) =>
    appPhase(name, "/api/check", [], undefined, undefined, undefined, script);
  return [
    { id: "kp", run: () => one("(kp) plain fixed window (1 d), keyless", body(TENANTS.plain)) },
    { id: "kcn", run: () => one("(kcn) + concurrency limit, leases expire", body(TENANTS.leases)) },
    {
      id: "kc",
      run: () =>
        pairs(
          "(kc) + concurrency limit, check + release pairs",
          pairScript({ token, check: body(TENANTS.leases), field: "lease", follow: "/api/check/release" }),
        ),
    },
    { id: "kpa", run: () => one("(kpa) fixed window with a penalty, allowed", body(TENANTS.penalty)) },
    {
      id: "kpb",
      run: async () => {
        await block(appUrl(), token);
        return one("(kpb) blocked by a penalty (in memory)", body(TENANTS.blocked));
      },
    },
    { id: "kaj", run: () => one("(kaj) adjustable: true", body(TENANTS.plain, { adjustable: true })) },
    {
      id: "kaa",
      run: () =>
        pairs(
          "(kaa) adjustable, check + refund pairs",
          pairScript({
            token,
            check: body(TENANTS.plain, { adjustable: true }),
            field: "checkId",
            follow: "/api/check/adjust",
            extra: ',"amount":-1',
          }),
        ),
    },
  ];
}

export function kindRows(get: (id: string) => PhaseSummary): Row[] {
  return [
    phaseRow(get("kp"), "(kp)", "keyless check, a fixed window (1 d): the plain twin"),
    phaseRow(get("kcn"), "(kcn)", "(kp) + a concurrency limit, leases left to expire"),
    phaseRow(get("kc"), "(kc)", "(kcn) with each lease released: per check + release", undefined, 0.5),
    phaseRow(get("kpa"), "(kpa)", "(kp) with a penalty on its limit, allowed"),
    phaseRow(get("kpb"), "(kpb)", "a blocked identity, answered from memory"),
    phaseRow(get("kaj"), "(kaj)", "(kp) with adjustable: true (a checkId)"),
    phaseRow(get("kaa"), "(kaa)", "(kaj) with each check refunded: per check + adjust", undefined, 0.5),
  ];
}

/** Each kind costs a plain check at most 5%; a blocked identity is at least as fast as the deny cache (e). */
export function kindTargets(get: (id: string) => PhaseSummary): Target[] {
  const plain = get("kp").median.rps;
  const near = (id: string): Target => {
    const ratio = get(id).median.rps / plain;
    return { what: `(${id}) >= 0.95x (kp) in checks/s`, value: `${ratio.toFixed(2)}x`, ok: ratio >= 0.95 };
  };
  const [kpb, e] = [get("kpb").median.rps, get("e").median.rps];
  return [
    near("kcn"),
    near("kpa"),
    near("kaj"),
    { what: "(kpb) >= (e) in checks/s", value: `${(kpb / e).toFixed(2)}x`, ok: kpb >= e },
  ];
}
