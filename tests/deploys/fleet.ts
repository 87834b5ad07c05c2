import { AppProcess, freePort } from "../integration/check/processes";
import { BOOTSTRAP } from "../integration/check/http";
import { HaProxy } from "./haproxy";
import { FREE_PLAN_OFF } from "../integration/check/setup";

// Two instances of the built server behind HAProxy, on loopback ports from
// SLUICE_TEST_LB_PORT (default 3190): the balancer there, the instances on the next two.
// They use the run's test PostgreSQL and Redis (DATABASE_URL, REDIS_URL), like the two apps
// of the integration suite.

export const LB_PORT = Number(process.env.SLUICE_TEST_LB_PORT ?? 3190);
/**
 * The instances' settings: a check timeout far above this shared machine's stalls, so every
 * decision is exact (a degraded one is allowed without counting: that is the Redis-outage
 * tests' subject, not these).
 */
export const INSTANCE_ENV = { SLUICE_LISTEN_HOST: "127.0.0.1", SLUICE_CHECK_TIMEOUT_MS: "2000" };
export { BOOTSTRAP, freePort };

type Limit = { name: string; by: "tenant" | "subject"; limit: number };

/** A tenant on plan free (its own limits off) with fixed one-hour windows of these limits. */
export function tenantWith(slug: string, limits: readonly Limit[]) {
  return {
    slug,
    name: slug,
    plan: "free",
    status: "active" as const,
    limits: [
      ...FREE_PLAN_OFF,
      ...limits.map((l) => ({ ...l, algorithm: "fixed_window" as const, window: "1h" })),
    ],
    routes: [],
    keys: [],
  };
}

export interface Fleet {
  lb: HaProxy;
  instances: AppProcess[];
  stop(): Promise<void>;
}

export async function startFleet(env: Record<string, string> = {}): Promise<Fleet> {
  const ports = [LB_PORT + 1, LB_PORT + 2];
  const instances = ports.map((port) => new AppProcess(port, { ...INSTANCE_ENV, ...env }));
  await Promise.all(instances.map((instance) => instance.start()));
  const lb = new HaProxy(LB_PORT, ports);
  await lb.start();
  for (const name of ["sluice1", "sluice2"]) await lb.waitUp(name);
  return {
    lb,
    instances,
    async stop() {
      await lb.stop();
      await Promise.all(instances.map((instance) => instance.stop()));
    },
  };
}

/** Stops an instance with SIGTERM; returns how long it took to exit (ms). */
export async function timedStop(instance: AppProcess): Promise<number> {
  const started = performance.now();
  await instance.stop();
  return performance.now() - started;
}

export interface UsageTotals {
  /** decisions that admitted: allowed, shadow-rejected and degraded (made without Redis) */
  allowed: number;
  rejected: number;
}

interface UsagePoint {
  allowed: number;
  rejected: number;
  shadowRejected: number;
  degraded: number;
}

/** Totals of GET /api/admin/usage for a tenant over [fromMs - 1 min, now + 1 min]. */
export async function usageTotals(baseUrl: string, tenant: string, fromMs: number): Promise<UsageTotals> {
  const to = Date.now() + 60_000;
  const query = `tenant=${tenant}&from=${fromMs - 60_000}&to=${to}&step=1m`;
  const response = await fetch(`${baseUrl}/api/admin/usage?${query}`, {
    headers: { authorization: `Bearer ${BOOTSTRAP}` },
  });
  if (!response.ok) throw new Error(`usage API answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { points: UsagePoint[] };
  return sumUsage(body.points);
}

/** Each decision is counted once, under one outcome; the admitting ones add up to "allowed". */
export function sumUsage(points: readonly UsagePoint[]): UsageTotals {
  return points.reduce(
    (sum, p) => ({
      allowed: sum.allowed + p.allowed + p.shadowRejected + p.degraded,
      rejected: sum.rejected + p.rejected,
    }),
    { allowed: 0, rejected: 0 },
  );
}

/** Polls the usage API until its totals reach `want` (flushes land within a second or so). */
export async function settledUsage(
  baseUrl: string,
  tenant: string,
  fromMs: number,
  want: number,
): Promise<UsageTotals> {
  let totals = await usageTotals(baseUrl, tenant, fromMs);
  for (let i = 0; i < 30 && totals.allowed + totals.rejected < want; i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    totals = await usageTotals(baseUrl, tenant, fromMs);
  }
  // a moment more: a count beyond the decisions (one counted twice) would show now
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  return usageTotals(baseUrl, tenant, fromMs);
}
