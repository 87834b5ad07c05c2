import { describe, expect, it } from "vitest";
import type { MinuteRow } from "@/lib/control/data/usage/rollup-writer";
import { writeLevel } from "@/lib/control/data/usage/stored-rows";
import { ALL_PAIRS, visitRows, type RowGrouping, type UsageRow } from "@/lib/usage/read/rows";
import { HOUR } from "./setup";
import {
  add,
  ctx,
  END,
  expected,
  H0,
  M0,
  NO_LEASES,
  MINUTE,
  read,
  ROUTES,
  stored,
  tenants,
  withDbRows,
  type Sums,
} from "./db-rows-fixture";

// Rolled-up usage is summed in PostgreSQL to what the reader keeps (db-rows.ts): per time
// bucket, and per key and route only where asked. The sums must equal what the rows add up
// to in JS, over query windows (six hours of minutes) and both tables, for one tenant only,
// and a reader that keeps neither key nor route must get one row a bucket, not one a pair.

withDbRows();

describe("usage rows summed in PostgreSQL", () => {
  it("minutes per 5-minute step, key and route: the rows' sums, across query windows", async () => {
    const { sums } = await read(M0, END, "minutes", 5 * MINUTE, ALL_PAIRS);
    expect(sums).toEqual(expected(M0, END, 5 * MINUTE, ALL_PAIRS));
    expect(sums.size).toBeGreaterThan(96 * 10);
  });

  it("a reader that keeps neither key nor route gets a row a step, not a row a pair", async () => {
    const none = { byKey: false, byRoute: false };
    const { sums, rows } = await read(M0, END, "minutes", HOUR, none);
    expect(sums).toEqual(expected(M0, END, HOUR, none));
    expect(rows).toHaveLength(8);
    expect(rows.every((r) => r.keyId === "" && r.route === "")).toBe(true);
    // the whole range at once: one row a query window (six hours of minutes each)
    const whole = await read(M0, END, "minutes", END - M0, none);
    expect(whole.sums).toEqual(expected(M0, END, END - M0, none));
    expect(whole.rows.length).toBeLessThanOrEqual(3);
  });

  it("narrowed to a key or a route in the query, summed over what is not kept", async () => {
    const mobile = { byKey: true, byRoute: false, keyId: tenants.a.keys.mobile as string };
    const byKey = await read(M0, END, "minutes", 15 * MINUTE, mobile);
    expect(byKey.sums).toEqual(expected(M0, END, 15 * MINUTE, mobile));
    expect(byKey.rows.every((r) => r.keyId === tenants.a.keys.mobile && r.route === "")).toBe(true);
    const orders = { byKey: false, byRoute: true, route: "POST /v1/orders" };
    expect((await read(M0 + 7 * MINUTE, END - 3 * MINUTE, "minutes", HOUR, orders)).sums).toEqual(
      expected(M0 + 7 * MINUTE, END - 3 * MINUTE, HOUR, orders),
    );
  });

  it("a range's totals read from the hours (totalsSource) equal its minutes' totals", async () => {
    // three hours before H0 with both: minutes, and hours as the rollup sums them
    const start = H0 - 3 * HOUR;
    const hours = new Map<number, MinuteRow[]>();
    for (let m = 0; m < 180; m++) {
      const t = start + m * MINUTE;
      const rows: MinuteRow[] = ["", tenants.a.keys.batch as string].map((keyId, k) => ({
        tenantId: tenants.a.id,
        keyId,
        route: ROUTES[m % 3] as string,
        allowed: 1 + ((m * (k + 2)) % 9),
        rejected: 0,
        shadowRejected: 0,
        degraded: 0,
        ...NO_LEASES,
      }));
      await writeLevel("minute", t, rows);
      const hour = Math.floor(t / HOUR) * HOUR;
      hours.set(hour, [...(hours.get(hour) ?? []), ...rows]);
    }
    // the hours as the rollup sums them (pairs repeated over minutes summed first)
    for (const [hour, rows] of hours) {
      const sums = new Map<string, MinuteRow>();
      for (const r of rows) {
        const id = `${r.keyId}|${r.route}`;
        const sum = sums.get(id);
        if (sum) sum.allowed += r.allowed;
        else sums.set(id, { ...r });
      }
      await writeLevel("hour", hour, [...sums.values()]);
    }
    // not on hour edges: the head and tail come from minutes, the whole hour between from UsageHour
    const [from, to] = [start + 25 * MINUTE, start + 150 * MINUTE];
    const totals = async (source: "minutes" | "hours", g: RowGrouping, since = from): Promise<Sums> => {
      const sums: Sums = new Map();
      for (const r of (await read(since, to, source, to - since, g)).rows)
        add(sums, `${r.keyId}|${r.route}`, r.allowed, r.rejected);
      return sums;
    };
    // per key and per route (the breakdowns): exact at any edge, from the minutes' series
    for (const g of [
      { byKey: true, byRoute: false },
      { byKey: false, byRoute: true },
    ]) {
      const fromMinutes = await totals("minutes", g);
      expect(fromMinutes.size).toBeGreaterThan(1);
      expect(await totals("hours", g)).toEqual(fromMinutes);
    }
    // key x route pairs: minutes keep them only until their hour is rolled up, so the
    // rolled-up head hour is read whole from the hours
    const pairsFromMinutes = await totals("minutes", ALL_PAIRS, Math.floor(from / HOUR) * HOUR);
    expect(pairsFromMinutes.size).toBe(6);
    expect(await totals("hours", ALL_PAIRS)).toEqual(pairsFromMinutes);
  });

  it("hours from UsageHour, then the minutes after the hour watermark, in 6-hour steps", async () => {
    const keysOnly = { byKey: true, byRoute: false };
    const { sums } = await read(H0, END, "hours", 6 * HOUR, keysOnly);
    expect(sums).toEqual(expected(H0, END, 6 * HOUR, keysOnly));
    const total = [...sums.values()].reduce((s, [allowed]) => s + allowed, 0);
    expect(total).toBe(stored.reduce((s, r) => s + r.allowed, 0));
  });

  it("whole days from UsageDay, their edges from hours and minutes: the same totals", async () => {
    // the first day of the fixture's hours, rolled up as the rollup would
    const day = new Map<string, MinuteRow>();
    for (const r of stored.filter((x) => x.t >= H0 && x.t < H0 + 24 * HOUR)) {
      const id = `${r.keyId}|${r.route}`;
      const sum = day.get(id) ?? {
        tenantId: tenants.a.id,
        keyId: r.keyId,
        route: r.route,
        allowed: 0,
        rejected: 0,
        shadowRejected: 0,
        degraded: 0,
        leasesAcquired: 0,
        leasesReleased: 0,
        leasesExpired: 0,
      };
      sum.allowed += r.allowed;
      sum.rejected += r.rejected;
      day.set(id, sum);
    }
    await writeLevel("day", H0, [...day.values()]);
    for (const g of [{ byKey: true, byRoute: false }, { byKey: false, byRoute: false }, ALL_PAIRS]) {
      const rows: UsageRow[] = [];
      await visitRows(tenants.a.id, H0, END, "days", ctx(), END - H0, (row) => rows.push(row), g);
      const sums: Sums = new Map();
      for (const r of rows) add(sums, `${r.keyId}|${r.route}`, r.allowed, r.rejected);
      // one bucket for the whole range (the range is not aligned to its own length)
      const want: Sums = new Map();
      for (const [id, [allowed, rejected]] of expected(H0, END, END - H0, g))
        add(want, id.slice(id.indexOf("|") + 1), allowed, rejected);
      expect(sums).toEqual(want);
    }
  });
});
