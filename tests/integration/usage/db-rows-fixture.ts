// The rows db-rows.test.ts reads: 30 hours and 8 hours of minutes of one tenant's usage in
// PostgreSQL (keys x routes, not every pair every minute), another tenant's at the same
// times, the rollup's watermarks set past them, and the sums the rows add up to in JS.
import { afterAll, beforeAll } from "vitest";
import { closeDb } from "@/lib/control/data/db";
import type { MinuteRow } from "@/lib/control/data/usage/rollup-writer";
import { deleteTenantUsage, writeLevel } from "@/lib/control/data/usage/stored-rows";
import { closeRedis } from "@/lib/shared/redis/redis";
import { visitRows, type RowContext, type RowGrouping, type UsageRow } from "@/lib/usage/read/rows";
import { jobKeys } from "@/lib/usage/keys";
import { connect, createTenant, HOUR, NS, type TestTenant } from "./setup";

export const NO_LEASES = { leasesAcquired: 0, leasesReleased: 0, leasesExpired: 0 };

export const client = connect();
export const ns = `${NS}dbrows:`;
export const MINUTE = 60_000;
// whole days back, clear of the other tests' minutes and of the retention sweep
export const H0 = Math.floor(Date.now() / (24 * HOUR)) * 24 * HOUR - 5 * 24 * HOUR;
export const HOURS = 30;
export const M0 = H0 + HOURS * HOUR;
export const MINUTES = 8 * 60;
export const END = M0 + MINUTES * MINUTE;
export const ROUTES = ["GET /v1/items/:id", "POST /v1/orders", ""];

export interface Stored {
  t: number;
  keyId: string;
  route: string;
  allowed: number;
  rejected: number;
}
export const stored: Stored[] = [];
/** the tenant read (a) and another at the same times (b), set by the setup */
export const tenants = { a: null as unknown as TestTenant, b: null as unknown as TestTenant };

export const ctx = (): RowContext => ({ client, ns, now: END + 5 * MINUTE, secondsRetentionMs: HOUR });

/** Registers the setup and clean-up: call once, at the top of the test file. */
export function withDbRows(): void {
  beforeAll(async () => {
    tenants.a = await createTenant("dbr", ["backend", "mobile", "batch"]);
    tenants.b = await createTenant("dbrb", ["other"]);
    const keys = ["", ...Object.values(tenants.a.keys)];
    const byTime = new Map<number, MinuteRow[]>();
    const put = (t: number, row: MinuteRow) => byTime.set(t, [...(byTime.get(t) ?? []), row]);
    for (let i = 0; i < HOURS + MINUTES; i++) {
      const inHours = i < HOURS;
      const t = inHours ? H0 + i * HOUR : M0 + (i - HOURS) * MINUTE;
      for (const [k, keyId] of keys.entries())
        for (const [r, route] of ROUTES.entries()) {
          if ((i + k + r) % 4 === 0) continue; // not every pair in every minute
          const row = { keyId, route, allowed: (i * 7 + k * 3 + r) % 11, rejected: (i + k * r) % 3 };
          stored.push({ t, ...row });
          put(t, { tenantId: tenants.a.id, ...row, shadowRejected: 0, degraded: 0, ...NO_LEASES });
        }
      // the other tenant, at the same times: never read for a
      const other = {
        tenantId: tenants.b.id,
        keyId: tenants.b.keys.other as string,
        route: ROUTES[0] as string,
        allowed: 1000,
        rejected: 0,
        shadowRejected: 0,
        degraded: 0,
        ...NO_LEASES,
      };
      put(t, other);
    }
    // 510 writes in order (the writer is the rollup's, one at a time): a minute and more on
    // a loaded machine, hence the hook's 3 minutes
    for (const [t, rows] of byTime) await writeLevel(t >= M0 ? "minute" : "hour", t, rows);
    // everything up to END is rolled up: minutes and hours come from PostgreSQL only
    const marks = jobKeys(ns);
    await client.set(marks.minutes, String(END / MINUTE));
    await client.set(marks.hours, String(M0 / HOUR));
    // the first fixture day is rolled into UsageDay (by the days test), the next is not
    await client.set(marks.days, String(H0 / (24 * HOUR) + 1));
  }, 180_000);

  afterAll(async () => {
    await deleteTenantUsage([tenants.a.id, tenants.b.id]);
    const marks = jobKeys(ns);
    await client.del(marks.minutes, marks.hours, marks.days);
    client.disconnect();
    await closeRedis();
    await closeDb();
  });
}

export type Sums = Map<string, [number, number]>;

export function add(into: Sums, id: string, allowed: number, rejected: number): void {
  const sum = into.get(id) ?? [0, 0];
  into.set(id, [sum[0] + allowed, sum[1] + rejected]);
}

export const idOf = (t: number, grain: number, g: RowGrouping, keyId: string, route: string): string =>
  `${Math.floor(t / grain) * grain}|${g.byKey ? keyId : ""}|${g.byRoute ? route : ""}`;

/** What the stored rows in [from, to) add up to, in JS. */
export function expected(from: number, to: number, grain: number, g: RowGrouping): Sums {
  const sums: Sums = new Map();
  for (const r of stored) {
    if (r.t < from || r.t >= to) continue;
    if (g.keyId !== undefined && r.keyId !== g.keyId) continue;
    if (g.route !== undefined && r.route !== g.route) continue;
    add(sums, idOf(r.t, grain, g, r.keyId, r.route), r.allowed, r.rejected);
  }
  return sums;
}

export async function read(
  from: number,
  to: number,
  source: "minutes" | "hours",
  grain: number,
  g: RowGrouping,
): Promise<{ sums: Sums; rows: UsageRow[] }> {
  const rows: UsageRow[] = [];
  await visitRows(tenants.a.id, from, to, source, ctx(), grain, (row) => rows.push(row), g);
  const sums: Sums = new Map();
  for (const r of rows) add(sums, idOf(r.t, grain, g, r.keyId, r.route), r.allowed, r.rejected);
  return { sums, rows };
}
