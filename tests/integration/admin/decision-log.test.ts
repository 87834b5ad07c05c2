// The decision log over HTTP on the running app (real PostgreSQL and Redis): checks made
// through /api/check appear in the tenant's log with the limit that denied them; filters by
// key, route, subject, decision, reason and limit; each tenant's sample is capped on its own
// (a busy tenant does not evict another's entries); the CSV export streams with a row cap
// and defuses formulas; another tenant's admin sees none of it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { closeDb, db } from "@/lib/control/data/db";
import { recentKey } from "@/lib/usage/keys";
import { LOG_PER_TENANT, RECENT_PER_TENANT } from "@/lib/usage/recent";
import { UsageRecorder } from "@/lib/usage/record/recorder";
import { waitFor } from "../../wait-for";
import {
  anyPlan,
  call,
  createAdminToken,
  createKey,
  planLimitsOff,
  putTenants,
  uniqueSlug,
  type ErrorReply,
} from "./http";

const slug = uniqueSlug("dlog");
const busy = uniqueSlug("dlog-busy");
const NS = process.env.REDIS_PREFIX ?? "";
const hour = { algorithm: "fixed_window", window: "1h" };
const client = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:63799", { protocol: 2 });
let viewer = ""; // a viewer of `slug`
let hostile = ""; // an admin of `busy`
let ids = { slug: "", busy: "", busyKey: "" };

interface Entry {
  at: string;
  key: string | null;
  route: string | null;
  subject: string | null;
  outcome: string;
  reason: string;
  deniedBy: string | null;
}
interface Log {
  tenant: string;
  entries: Entry[];
  matched: number;
  sampled: number;
  bound: { decisionsPerTenant: number };
}

async function log(query: string, token?: string): Promise<Log> {
  const reply = await call<Log>("GET", `/api/admin/decisions?${query}`, token === undefined ? {} : { token });
  if (reply.status !== 200) throw new Error(`decisions: ${reply.status} ${reply.text}`);
  return reply.body;
}

async function check(body: Record<string, unknown>): Promise<{ allowed: boolean }> {
  const reply = await call<{ allowed: boolean }>("POST", "/api/check", { body: { tenant: slug, ...body } });
  if (reply.status !== 200) throw new Error(`check: ${reply.status} ${reply.text}`);
  return reply.body;
}

beforeAll(async () => {
  const plan = await anyPlan();
  const planLimits = await planLimitsOff(plan);
  await putTenants([
    { slug, plan, limits: planLimits },
    { slug: busy, plan, limits: planLimits },
  ]);
  await createKey(slug, "k1");
  ids.busyKey = (await createKey(busy, "bk")).id;
  await putTenants([
    {
      slug,
      plan,
      limits: planLimits,
      routes: [{ pattern: "POST /dl/:id", limits: [{ name: "dl-route", by: "subject", limit: 1, ...hour }] }],
      keys: [{ name: "k1", limits: [{ name: "dl-key", by: "key", limit: 1000, ...hour }] }],
    },
  ]);
  viewer = await createAdminToken({ name: "dlog viewer", role: "viewer", tenant: slug });
  hostile = await createAdminToken({ name: "dlog hostile", role: "admin", tenant: busy });
  const tenants = await db().tenant.findMany({
    where: { slug: { in: [slug, busy] } },
    select: { id: true, slug: true },
  });
  ids = {
    ...ids,
    slug: tenants.find((t) => t.slug === slug)?.id ?? "",
    busy: tenants.find((t) => t.slug === busy)?.id ?? "",
  };
  // the fronts have the new config once the route's limit refuses a dry run of cost 2
  await waitFor(
    async () =>
      !(await check({ key: "k1", route: "POST /dl/0", subject: "probe", cost: 2, dryRun: true })).allowed,
    "the tenant's config on the fronts",
  );
});

afterAll(async () => {
  client.disconnect();
  await closeDb();
});

describe("decision log", () => {
  it("shows checks made through /api/check, with the limit that denied them, and filters", async () => {
    const subject = "198.51.100.40";
    for (let i = 0; i < 3; i++) await check({ key: "k1", route: "POST /dl/7", subject });
    await check({ key: "k1", route: "POST /dl/8", subject: "198.51.100.41" });
    const q = `tenant=${slug}&subject=${subject}`;
    await waitFor(async () => (await log(q, viewer)).matched >= 3, "the checks in the log");
    const all = await log(q, viewer);
    expect(all.entries.map((e) => e.outcome)).toEqual(["rejected", "rejected", "allowed"]);
    expect(all.entries[0]).toMatchObject({
      key: "k1",
      route: "POST /dl/:id",
      reason: "rate_limited",
      deniedBy: "dl-route",
    });
    const denied = await log(`${q}&outcome=rejected&deniedBy=dl-route&reason=rate_limited`, viewer);
    expect(denied.entries).toHaveLength(2);
    // a route as a request line resolves to its pattern; a key filter by name
    const byRoute = await log(
      `tenant=${slug}&route=${encodeURIComponent("POST /dl/123")}&key=k1&minutes=10`,
      viewer,
    );
    expect(new Set(byRoute.entries.map((e) => e.subject))).toEqual(new Set([subject, "198.51.100.41"]));
    expect((await log(`${q}&outcome=degraded`, viewer)).entries).toEqual([]);
    expect((await log(`${q}&limit=1`, viewer)).entries).toHaveLength(1);
  });

  it("caps each tenant's sample on its own: a busy tenant keeps the last N, another keeps all of its few", async () => {
    const before = await log(`tenant=${slug}&limit=1000`);
    const recorder = new UsageRecorder({
      redis: () => client,
      ns: NS,
      enabled: true,
      secondsRetentionMs: 3_600_000,
    });
    const start = Date.now();
    // 4 x the cap of decisions and denials, at most RECENT_PER_TENANT of each per flush (as a front does)
    for (let flush = 0; flush < (4 * LOG_PER_TENANT) / RECENT_PER_TENANT; flush++) {
      for (let i = 0; i < 2 * RECENT_PER_TENANT; i++) {
        recorder.record({
          tenantId: ids.busy,
          keyId: ids.busyKey,
          route: null,
          subject: `=cmd|${flush}-${i}`,
          outcome: i % 2 === 0 ? "allowed" : "rejected",
          reason: i % 2 === 0 ? "ok" : "rate_limited",
        });
      }
      await recorder.flush();
    }
    expect(await client.llen(recentKey(NS, ids.busy, "d"))).toBe(LOG_PER_TENANT);
    expect(await client.llen(recentKey(NS, ids.busy, "x"))).toBe(LOG_PER_TENANT);
    const busyLog = await log(`tenant=${busy}&limit=1000`, hostile);
    expect(busyLog.sampled).toBeLessThanOrEqual(2 * LOG_PER_TENANT);
    expect(busyLog.sampled).toBeGreaterThanOrEqual(LOG_PER_TENANT);
    expect(busyLog.bound.decisionsPerTenant).toBe(LOG_PER_TENANT);
    // the newest survived, the oldest went
    expect(busyLog.entries[0]?.subject).toMatch(/^=cmd\|39-/);
    expect(busyLog.entries.some((e) => e.subject?.startsWith("=cmd|0-"))).toBe(false);
    expect(Date.parse(busyLog.entries.at(-1)?.at ?? "")).toBeGreaterThanOrEqual(start - 1_000);
    // the quiet tenant lost nothing to the busy one
    const after = await log(`tenant=${slug}&limit=1000`);
    expect(before.sampled).toBeGreaterThanOrEqual(4);
    const kept = new Set(after.entries.map((e) => JSON.stringify(e)));
    expect(before.entries.filter((e) => !kept.has(JSON.stringify(e)))).toEqual([]);
  });

  it("exports CSV, streamed, capped and with formulas defused", async () => {
    const reply = await call("GET", `/api/admin/decisions?tenant=${busy}&format=csv`, { token: hostile });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toContain("text/csv");
    expect(reply.headers.get("content-disposition")).toMatch(
      new RegExp(`attachment; filename="decisions-${busy}-.*\\.csv"`),
    );
    const lines = reply.text.trimEnd().split("\r\n");
    expect(lines[0]).toBe("at,key,route,subject,outcome,reason,denied_by");
    expect(lines.length - 1).toBeGreaterThanOrEqual(LOG_PER_TENANT);
    expect(lines.length - 1).toBeLessThanOrEqual(2 * LOG_PER_TENANT);
    // a subject "=cmd|..." would be a formula in a spreadsheet: it leads with an apostrophe
    expect(lines[1]).toMatch(/^[^,]+,bk,,'=cmd\|39-\d+,(allowed|rejected),(ok|rate_limited),$/);
    const few = await call("GET", `/api/admin/decisions?tenant=${busy}&format=csv&limit=5&outcome=rejected`, {
      token: hostile,
    });
    expect(few.text.trimEnd().split("\r\n")).toHaveLength(6);
  });

  it("shows a tenant's log to its own members only", async () => {
    // another tenant's admin: the tenant does not exist for it, in JSON and in CSV
    for (const format of ["json", "csv"]) {
      const reply = await call<ErrorReply>("GET", `/api/admin/decisions?tenant=${slug}&format=${format}`, {
        token: hostile,
      });
      expect(reply.status).toBe(404);
      expect(reply.text).not.toContain("198.51.100.40");
    }
    // our viewer naming the other tenant's key (by name or id) in our tenant: no such key here
    for (const key of ["bk", ids.busyKey.toLowerCase()]) {
      const reply = await call<ErrorReply>("GET", `/api/admin/decisions?tenant=${slug}&key=${key}`, {
        token: viewer,
      });
      expect([400, 404]).toContain(reply.status);
    }
    // and the other tenant's subjects are not in ours
    expect((await log(`tenant=${slug}&subject=${encodeURIComponent("=cmd|39-1")}`, viewer)).entries).toEqual(
      [],
    );
    const viewerOfOther = await call<ErrorReply>("GET", `/api/admin/decisions?tenant=${busy}`, {
      token: viewer,
    });
    expect(viewerOfOther.status).toBe(404);
  });

  it("refuses bad filters with the field named", async () => {
    for (const [query, path] of [
      ["outcome=nope", "outcome"],
      ["limit=5000", "limit"],
      ["minutes=0", "minutes"],
      ["reason=bogus", "reason"],
      ["format=xml", "format"],
      ["route=nope", "route"],
    ]) {
      const reply = await call<ErrorReply>("GET", `/api/admin/decisions?tenant=${slug}&${query}`, {
        token: viewer,
      });
      expect(reply.status, query).toBe(400);
      expect(reply.body.error.path).toBe(path);
    }
  });
});
