import { ALGORITHMS, type LimitRule } from "@/lib/shared/limit-types";
import { CALENDAR_PERIODS, NOMINAL_PERIOD_MS } from "@/lib/shared/calendar";

// A seeded PRNG (mulberry32) and random rules for the differential tests.

export type Random = () => number;

export function prng(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const int = (rand: Random, lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));
export const pick = <T>(rand: Random, items: readonly T[]): T =>
  items[Math.floor(rand() * items.length)] as T;

const WINDOWS = [1, 3, 7, 50, 100, 250, 1_000, 1_500, 60_000, 3_600_000];

const BIG_WINDOWS = [1, 999, 60_000, 86_400_000, 31_536_000_000];

/** zones with and without DST, north and south, and a half-hour offset */
export const CALENDAR_ZONES = [
  "UTC",
  "Europe/Berlin",
  "America/New_York",
  "Australia/Sydney",
  "Asia/Kolkata",
];

/** big: numbers near docs/configuration.md's ranges (L to 1e6, W to 365 d) rather than small ones. */
export function randomRule(rand: Random, big = false): LimitRule {
  const algorithm = pick(
    rand,
    ALGORITHMS.filter((a) => a !== "concurrency"),
  );
  const meter = algorithm === "gcra" || algorithm === "leaky_bucket" || algorithm === "token_bucket";
  const delay = (algorithm === "gcra" || algorithm === "leaky_bucket") && rand() < 0.4;
  if (algorithm === "calendar") {
    const period = pick(rand, CALENDAR_PERIODS);
    return {
      algorithm,
      limit: big ? int(rand, 1, 1_000_000) : int(rand, 1, 20),
      windowMs: NOMINAL_PERIOD_MS[period],
      burst: null,
      action: "reject",
      maxDelayMs: null,
      mode: rand() < 0.2 ? "shadow" : "enforce",
      onStoreFailure: "open",
      calendar: { period, timeZone: pick(rand, CALENDAR_ZONES) },
    };
  }
  return {
    algorithm,
    limit: big ? int(rand, 1, 1_000_000) : int(rand, 1, 20),
    windowMs: pick(rand, big ? BIG_WINDOWS : WINDOWS),
    burst: meter && rand() < 0.5 ? int(rand, 1, big ? 2_000_000 : 30) : null,
    action: delay ? "delay" : "reject",
    maxDelayMs: delay ? (rand() < 0.2 ? null : int(rand, 0, big ? 10_000_000 : 3_000)) : null,
    mode: rand() < 0.2 ? "shadow" : "enforce",
    onStoreFailure: "open",
  };
}
