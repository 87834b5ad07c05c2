// Phases (q) and (qx) of npm run bench: a keyless check whose only limit is a tenant-wide
// calendar quota (a month in Europe/Berlin, docs/algorithms.md "Calendar quotas") next to
// the same check against a plain fixed window of a day, in the same run. The quota's
// period bounds are computed once per period and zone on the server (lib/check/limiter/
// calendar.ts), so the two should cost the same: one script call each, the same integers.
import type { Principal } from "@/lib/shared/principal";
import type { Measured, Phase, PhaseSummary } from "./rounds";
import type { Row, Target } from "./report";
import { phaseRow } from "./rows";

const bench: Principal = { kind: "system", label: "bench" };
const CALENDAR = "bench-calendar";
const FIXED = "bench-fixed";
const LIMIT = 1_000_000_000;

/** Two tenants on the bench plan whose tenant-wide limit is a calendar quota and a fixed window. */
// Server modules ("server-only") are imported when used: index.ts registers their hook first.
export async function seedCalendar(): Promise<void> {
  const { importConfig } = await import("@/lib/control/data/import-config");
  await importConfig(bench, {
    tenants: [
      {
        slug: CALENDAR,
        plan: "bench",
        timeZone: "Europe/Berlin",
        limits: [{ name: "tenant-rpm", algorithm: "calendar", limit: LIMIT, period: "month" }],
      },
      {
        slug: FIXED,
        plan: "bench",
        limits: [{ name: "tenant-rpm", algorithm: "fixed_window", limit: LIMIT, window: "1d" }],
      },
    ],
  });
}

type AppPhase = (name: string, path: string, bodies: string[]) => Promise<Measured>;

// (qx) first: the first phase after the app's restart each round runs on a colder process
export function calendarPhases(appPhase: AppPhase): Phase[] {
  return [
    {
      id: "qx",
      run: () => appPhase("(qx) plain fixed window (1 d)", "/api/check", [JSON.stringify({ tenant: FIXED })]),
    },
    {
      id: "q",
      run: () =>
        appPhase("(q) calendar quota (month, Berlin)", "/api/check", [JSON.stringify({ tenant: CALENDAR })]),
    },
  ];
}

export function calendarRows(get: (id: string) => PhaseSummary): Row[] {
  return [
    phaseRow(get("qx"), "(qx)", "keyless check, a tenant-wide fixed window (1 d): the plain twin"),
    phaseRow(get("q"), "(q)", "the same, a calendar quota (a month in Europe/Berlin)"),
  ];
}

/** A calendar quota costs a plain window at most 5% (the same script, bounds computed once a period). */
export function calendarTarget(get: (id: string) => PhaseSummary): Target {
  const ratio = get("q").median.rps / get("qx").median.rps;
  return { what: "(q) >= 0.95x (qx) in checks/s", value: `${ratio.toFixed(2)}x`, ok: ratio >= 0.95 };
}
