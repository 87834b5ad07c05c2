import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detailFor, readAlertRows } from "@/lib/control/alerts/alert-rows";
import { degradedCount, rejectionRate, utilization, type SecondRow } from "@/lib/control/alerts/conditions";
import { readRows } from "@/lib/usage/read/rows";
import { closeRedis } from "@/lib/shared/redis/redis";
import type { Outcome } from "@/lib/usage/types";
import { connect, contextAt, recordPattern, RUN } from "../usage/setup";

// The evaluator reads a tenant's seconds with only the detail its rules compare (alert-rows.ts),
// merged as read. Its conditions must come out as they do on the full rows per second, key
// and route, while the rows shrink to one a second where no rule tells keys or routes apart.

const client = connect();
const tenantId = `${RUN}-alert-rows`;
const base = Math.floor(Date.now() / 60_000) * 60_000 - 3 * 60_000;
const now = base + 90_000;
const ctx = () => contextAt(client, now);
const KEYS = ["ka", "kb", "kc"];
const ROUTES = ["GET /a", "POST /b", ""];
const OUTCOMES: Outcome[] = ["allowed", "allowed", "allowed", "rejected", "degraded"];

beforeAll(async () => {
  await client.ping();
  await recordPattern(client, {
    base,
    seconds: 90,
    perSecond: 11,
    offsetMs: 300,
    flushEvery: 15,
    event: (n) => {
      const [keyId, route] = [KEYS[n % 3] ?? null, ROUTES[(n >> 2) % 3] ?? null];
      return { tenantId, keyId, route, outcome: OUTCOMES[n % 5] as Outcome, subject: null };
    },
  });
});

afterAll(async () => {
  client.disconnect();
  await closeRedis();
});

const rule = (keyId: string | null, route: string | null) => ({
  kind: "rejection_rate",
  keyId,
  route,
  limitName: null,
});
const limit = (by: string, route: string | null) => ({ limit: { name: "l", by, route }, keyIds: null });

describe("the alert evaluator's rows", () => {
  it("keep keys and routes only where a rule or its limit compares them", () => {
    expect(detailFor([rule(null, null)], [])).toEqual({ keys: false, routes: false });
    expect(detailFor([rule("ka", null)], [])).toEqual({ keys: true, routes: false });
    expect(detailFor([rule(null, "GET /a")], [])).toEqual({ keys: false, routes: true });
    const measuring = { kind: "utilization", keyId: null, route: null, limitName: "l" };
    expect(detailFor([measuring], [limit("key", null)])).toEqual({ keys: true, routes: false });
    expect(detailFor([measuring], [limit("tenant", "POST /b")])).toEqual({ keys: false, routes: true });
    // a limit no rule measures adds nothing
    expect(detailFor([rule(null, null)], [limit("key", "POST /b")])).toEqual({ keys: false, routes: false });
  });

  it("give the same verdicts as the full rows, in one row a second when nothing is compared", async () => {
    const from = base;
    const full: SecondRow[] = await readRows(tenantId, from, now, "seconds", ctx());
    const none = await readAlertRows(tenantId, from, now, ctx(), { keys: false, routes: false });
    const both = await readAlertRows(tenantId, from, now, ctx(), { keys: true, routes: true });
    expect(none.length).toBe(new Set(full.map((r) => r.t)).size);
    expect(full.length).toBeGreaterThan(none.length * 3);
    expect(both.length).toBe(full.length);
    const all = { keyId: null, route: null };
    expect(rejectionRate(none, all, now, 60, 10)).toEqual(rejectionRate(full, all, now, 60, 10));
    expect(degradedCount(none, all, now, 30)).toEqual(degradedCount(full, all, now, 30));
    const keyed = await readAlertRows(tenantId, from, now, ctx(), { keys: true, routes: false });
    const perKey = { limit: 20, windowMs: 10_000, perKey: true, keyIds: null, route: null };
    const value = utilization(full, perKey, all, now, 20, 50);
    expect(value.value).toBeGreaterThan(0);
    expect(utilization(keyed, perKey, all, now, 20, 50)).toEqual(value);
    const onRoute = { ...perKey, route: "GET /a" };
    const narrowed = { keyId: "kb", route: "GET /a" };
    expect(utilization(both, onRoute, narrowed, now, 20, 10)).toEqual(
      utilization(full, onRoute, narrowed, now, 20, 10),
    );
  });
});
