// Phases (ln), (lm) and (ld) of npm run bench: checks with a subject against a tenant
// without lists (ln), the same checks against a tenant whose lists hold 100,000 entries
// (exact IPv4 and IPv6 addresses, IPv4 and IPv6 CIDR ranges, subjects) that they all miss
// (lm), and checks whose subject that list denies (ld), answered in memory. Both tenants
// have the bench plan's limits; the Redis script calls per check show (ld) makes none.
import { Redis } from "ioredis";
import type { Principal } from "@/lib/shared/principal";
import type { Measured, Phase, PhaseSummary } from "./rounds";
import type { Row, Target } from "./report";
import { phaseRow } from "./rows";

const bench: Principal = { kind: "system", label: "bench" };
const LISTED = "bench-lists";
const PLAIN = "bench-no-lists";
export const LIST_ENTRIES = 100_000;

/** 100,000 entries, a fifth of each kind; none of them holds 192.0.2.x, 2001:db8:ffff::/48 or user-m*. */
function entries(): string[] {
  const out: string[] = [];
  const fifth = LIST_ENTRIES / 5;
  for (let i = 0; i < fifth; i++) out.push(`10.${(i >> 8) & 255}.${i & 255}.${1 + (i % 200)}`);
  for (let i = 0; i < fifth; i++) out.push(`172.${16 + (i >> 12)}.${(i >> 4) & 255}.${(i & 15) << 4}/28`);
  for (let i = 0; i < fifth; i++) out.push(`2001:db8:${(i >> 4).toString(16)}:${(i & 15).toString(16)}::1`);
  for (let i = 0; i < fifth; i++) out.push(`2001:db8:${(0x8000 + i).toString(16)}::/48`);
  for (let i = 0; i < fifth; i++) out.push(`user-${i}`);
  return out;
}

// Server modules ("server-only") are imported when used: index.ts registers their hook first.
export async function seedLists(): Promise<void> {
  const { importConfig } = await import("@/lib/control/data/import-config");
  await importConfig(bench, {
    tenants: [
      { slug: LISTED, plan: "bench", lists: { deny: entries(), allow: [] } },
      { slug: PLAIN, plan: "bench" },
    ],
  });
}

/** 300 subjects that miss the list: IPv4, IPv6 and names, as a client address would vary. */
const missing = (tenant: string): string[] =>
  Array.from({ length: 300 }, (_, i) => {
    const subject =
      i % 3 === 0 ? `192.0.2.${i % 250}` : i % 3 === 1 ? `2001:db8:ffff::${i.toString(16)}` : `user-m${i}`;
    return JSON.stringify({ tenant, subject });
  });
const denied = Array.from({ length: 300 }, (_, i) => {
  const j = i % 250; // the j-th exact entry is 10.0.j.(1 + j % 200)
  const subject = i % 3 === 0 ? `10.0.${j}.${1 + (j % 200)}` : i % 3 === 1 ? `172.16.0.${j}` : `user-${i}`;
  return JSON.stringify({ tenant: LISTED, subject });
});

async function scriptCalls(redis: Redis): Promise<number> {
  const info = await redis.info("commandstats");
  let calls = 0;
  for (const match of info.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+)/gm)) calls += Number(match[1]);
  return calls;
}

type AppPhase = (name: string, path: string, bodies: string[]) => Promise<Measured>;

export function listPhases(appPhase: AppPhase, redisUrl: string): Phase[] {
  const measure = async (name: string, bodies: string[]): Promise<Measured> => {
    const redis = new Redis(redisUrl);
    try {
      const before = await scriptCalls(redis);
      const measured = await appPhase(name, "/api/check", bodies);
      const checks = measured.rps * (measured.seconds + 1);
      const perCheck = (await scriptCalls(redis)) - before;
      return { ...measured, note: `${measured.note}; ${(perCheck / checks).toFixed(4)} Redis calls/check` };
    } finally {
      redis.disconnect();
    }
  };
  return [
    { id: "ln", run: () => measure("(ln) subject, tenant without lists", missing(PLAIN)) },
    { id: "lm", run: () => measure("(lm) subject missing a 100,000-entry list", missing(LISTED)) },
    { id: "ld", run: () => measure("(ld) subject the list denies", denied) },
  ];
}

export function listRows(get: (id: string) => PhaseSummary): Row[] {
  return [
    phaseRow(get("ln"), "(ln)", "POST /api/check with a subject, tenant without lists"),
    phaseRow(
      get("lm"),
      "(lm)",
      `the same, missing a ${LIST_ENTRIES.toLocaleString("en")}-entry allow/deny list`,
    ),
    phaseRow(get("ld"), "(ld)", "the same, subject denied by the list (in memory)"),
  ];
}

/** A list that misses costs a check at most 5%; a denial is at least as fast as the deny cache (e). */
export function listTargets(ln: Measured, lm: Measured, ld: Measured, e: Measured): Target[] {
  return [
    {
      what: "(lm) >= 0.95x (ln) in checks/s",
      value: `${(lm.rps / ln.rps).toFixed(2)}x`,
      ok: lm.rps >= 0.95 * ln.rps,
    },
    { what: "(ld) >= (e) in checks/s", value: `${(ld.rps / e.rps).toFixed(2)}x`, ok: ld.rps >= e.rps },
  ];
}
