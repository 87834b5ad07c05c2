import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/data/db";
import { createOverride } from "@/lib/data/overrides";
import { exportConfig } from "@/lib/data/export-config";
import { importConfig } from "@/lib/data/import-config";
import { ValidationFailed } from "@/lib/data/errors";
import { addPlansAndRoutes, closeClients, FREE_PLAN_OFF, setupTenants, tester, unique } from "./setup";
import { APP_URL, APP_URL_2, decide, post, sleep, waitForVersion, type Decision } from "./http";

// Temporary overrides (docs/overrides.md) on the two running app processes: each begins and
// ends at its times, to the second, with no config change at either moment; the counters
// stay the limit's (an override never resets usage); a limit of 0 blocks, "disabled" drops
// the limit, a key's or subject's override touches only that key's or subject's checks.
// Hostile input is refused with the field named and changes nothing.

const slug = unique("ovr");
const other = unique("ovr-other");
const plan = unique("ovrplan");
let keys: Record<string, string> = {};
let tenantId = "";

type OverrideReply = { id: string; endsAt: string; state: string };
type Report = Decision["limits"][number] & { override?: { id: string; endsAt: string } };

const limitsOf = (d: Decision): Report[] => d.limits as Report[];
const few = (d: Decision): Report | undefined => limitsOf(d).find((l) => l.name === "few");

beforeAll(async () => {
  await addPlansAndRoutes([
    {
      name: plan,
      limits: [{ name: "plan-cap", by: "tenant", algorithm: "fixed_window", limit: 1000, window: "1h" }],
    },
  ]);
  const limits = [
    { name: "few", by: "tenant" as const, algorithm: "fixed_window" as const, limit: 3, window: "1h" },
    { name: "per-ip", by: "subject" as const, algorithm: "token_bucket" as const, limit: 5, window: "1h" },
  ];
  const setup = await setupTenants(
    [
      { slug, plan, limits },
      { slug: other, plan: "free", limits: FREE_PLAN_OFF },
    ],
    {
      keysWithoutLimits: [
        { tenant: slug, name: "batch" },
        { tenant: other, name: "theirs" },
      ],
    },
  );
  keys = setup.keys;
  await waitForVersion(setup.version);
  await waitForVersion(setup.version, APP_URL_2);
  tenantId = (await db().tenant.findUniqueOrThrow({ where: { slug }, select: { id: true } })).id;
});

afterAll(closeClients);

async function create(body: Record<string, unknown>): Promise<OverrideReply> {
  const reply = await post<OverrideReply>("/api/admin/overrides", { tenant: slug, reason: "test", ...body });
  if (reply.status !== 201) throw new Error(`override: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

/** Polls until the app's answer passes `accept`; returns when that answer arrived. */
async function when(url: string, body: unknown, accept: (d: Decision) => boolean, limitMs = 15_000) {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const decision = await decide(body, { url });
    const at = Date.now(); // the app decided before this: same machine, same clock
    if (accept(decision)) return { at, decision };
    if (Date.now() > deadline)
      throw new Error(`${url}: not seen in ${limitMs} ms: ${JSON.stringify(decision)}`);
    await sleep(20);
  }
}

const nextSecond = (offsetMs: number): number => Math.ceil((Date.now() + offsetMs) / 1000) * 1000;

/** A decision Redis answered (on a loaded machine a check may come back degraded: ask again). */
async function settled(body: unknown, url = APP_URL): Promise<Decision> {
  for (let i = 0; ; i++) {
    const decision = await decide(body, { url });
    if (!decision.degraded || i >= 50) return decision;
    await sleep(100);
  }
}

describe("temporary overrides on two app processes", () => {
  it("begin and end at their times, to the second, and leave the counters as they were", async () => {
    const probe = { tenant: slug, dryRun: true };
    // use some of the 3: a dry run then reports remaining = 3 - used - 1
    let before = await settled(probe);
    for (let i = 0; i < 5 && (few(before)?.remaining ?? 2) > 0; i++) {
      await decide({ tenant: slug });
      before = await settled(probe);
    }
    const remaining = few(before)?.remaining ?? -1;
    expect(remaining).toBe(0); // 2 used
    const version = (await db().configVersion.aggregate({ _max: { version: true } }))._max.version ?? 0;
    const startsAt = nextSecond(5_000);
    const endsAt = startsAt + 4_000;
    const created = await create({
      limit: "few",
      value: 10,
      startsAt: new Date(startsAt).toISOString(),
      endsAt: new Date(endsAt).toISOString(),
      reason: "launch week",
    });
    expect(created.state).toBe("upcoming");
    // before the start: the limit as configured, on both, under the new version
    for (const url of [APP_URL, APP_URL_2]) {
      const d = await settled(probe, url);
      expect(d.configVersion).toBeGreaterThan(version);
      // (a machine slow enough to reach the start already is checked by the timing below)
      if (Date.now() < startsAt) {
        expect(few(d)).toMatchObject({ limit: 3, remaining });
        expect(few(d)?.override).toBeUndefined();
      }
    }
    const began = await Promise.all(
      [APP_URL, APP_URL_2].map((url) => when(url, probe, (d) => few(d)?.limit === 10)),
    );
    for (const { at, decision } of began) {
      // first seen after the start (never before it) and within the second
      expect(at).toBeGreaterThanOrEqual(startsAt);
      expect(at).toBeLessThan(startsAt + 1_000);
      expect(few(decision)?.override).toEqual({ id: created.id, endsAt: new Date(endsAt).toISOString() });
    }
    // the 2 units used before still count against the raised limit: 10 - 2 - 1
    for (const url of [APP_URL, APP_URL_2]) expect(few(await settled(probe, url))?.remaining).toBe(7);
    const ended = await Promise.all(
      [APP_URL, APP_URL_2].map((url) => when(url, probe, (d) => few(d)?.limit === 3)),
    );
    for (const { at, decision } of ended) {
      expect(at).toBeGreaterThanOrEqual(endsAt);
      expect(at).toBeLessThan(endsAt + 1_000);
      expect(few(decision)?.override).toBeUndefined();
    }
    // and after the end, as they were: neither the start nor the end reset anything
    for (const url of [APP_URL, APP_URL_2]) expect(few(await settled(probe, url))?.remaining).toBe(remaining);
    // neither moment was a config change (nothing audited for the tenant since the create):
    // the servers applied the times themselves
    expect(await db().auditEntry.count({ where: { tenantId, at: { gt: new Date(startsAt - 500) } } })).toBe(
      0,
    );
  }, 40_000);

  it("0 blocks one subject without counting; ending early lifts it on both", async () => {
    const ip = "203.0.113.9";
    const block = await create({
      subject: ip,
      limit: "per-ip",
      value: 0,
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      reason: "abuse",
    });
    for (const url of [APP_URL, APP_URL_2]) {
      const { decision } = await when(
        url,
        { tenant: slug, subject: ip },
        (d) => d.reason === "rate_limited" && limitsOf(d)[0]?.name === "per-ip",
      );
      expect(decision.allowed).toBe(false);
      expect(decision.retryAfterMs).toBeGreaterThan(3_500_000);
      expect(limitsOf(decision)).toEqual([
        expect.objectContaining({
          name: "per-ip",
          limit: 0,
          remaining: 0,
          override: { id: block.id, endsAt: block.endsAt },
        }),
      ]);
    }
    // another subject is untouched (few is full from the test before: per-ip still counts)
    const neighbour = await settled({ tenant: slug, subject: "198.51.100.1", dryRun: true });
    // a dry run reports what would remain after it: 5 - 1
    expect(limitsOf(neighbour).find((l) => l.name === "per-ip")).toMatchObject({ limit: 5, remaining: 4 });
    const end = await post<OverrideReply>(`/api/admin/overrides/${block.id}/end`, {});
    expect(end.status).toBe(200);
    expect(end.body.state).toBe("ended");
    for (const url of [APP_URL, APP_URL_2]) {
      const { decision } = await when(
        url,
        { tenant: slug, subject: ip, dryRun: true },
        (d) => limitsOf(d).some((l) => l.name === "per-ip" && l.limit === 5),
        5_000,
      );
      // the block counted nothing: the subject's bucket is whole (5 - the dry run's 1)
      const settledOne = decision.degraded
        ? await settled({ tenant: slug, subject: ip, dryRun: true }, url)
        : decision;
      expect(limitsOf(settledOne).find((l) => l.name === "per-ip")?.remaining).toBe(4);
    }
    const again = await post("/api/admin/overrides/" + block.id + "/end", {});
    expect(again.status).toBe(409);
  }, 30_000);

  it("a key's override and a disabled limit touch only what they name", async () => {
    const keyOverride = await create({
      key: "batch",
      limit: "few",
      value: 500,
      endsAt: new Date(Date.now() + 60_000).toISOString(),
    });
    const { decision } = await when(
      APP_URL,
      { apiKey: keys[`${slug}/batch`], dryRun: true },
      (d) => few(d)?.limit === 500,
      5_000,
    );
    expect(few(decision)?.override?.id).toBe(keyOverride.id);
    expect(few(await settled({ tenant: slug, dryRun: true }))?.limit).toBe(3);
    await create({ limit: "per-ip", value: "disabled", endsAt: new Date(Date.now() + 60_000).toISOString() });
    const { decision: off } = await when(
      APP_URL_2,
      { tenant: slug, subject: "198.51.100.7", dryRun: true },
      (d) => !limitsOf(d).some((l) => l.name === "per-ip"),
      5_000,
    );
    expect(limitsOf(off).map((l) => l.name)).toContain("few");
  }, 20_000);
});

describe("hostile input is refused, naming the field, and changes nothing", () => {
  const count = () => db().override.count({ where: { tenantId } });
  const auditCount = () => db().auditEntry.count({ where: { tenantId, action: "override.create" } });
  const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

  it.each([
    ["another tenant's key", { key: "theirs" }, "key"],
    ["an unknown limit", { limit: "nope" }, "limit"],
    ["a subject override of a limit not counted by subject", { subject: "x", limit: "few" }, "limit"],
    [
      "an end before the start",
      { startsAt: inAnHour(), endsAt: new Date(Date.now() + 60_000).toISOString() },
      "endsAt",
    ],
    ["an end years away", { endsAt: "2031-01-01T00:00:00Z" }, "endsAt"],
    ["a start in the past", { startsAt: "2020-01-01T00:00:00Z" }, "startsAt"],
    ["a huge reason", { reason: "x".repeat(10_000) }, "reason"],
    ["no reason", { reason: "  " }, "reason"],
    ["a negative limit", { value: -1 }, "value"],
    ["a key and a subject", { key: "batch", subject: "x" }, "subject"],
    ["an unknown field", { tenantId: "x" }, ""],
  ])("%s", async (_label, change, path) => {
    const [before, audits] = [await count(), await auditCount()];
    const reply = await post<{ error: { code: string; path?: string } }>("/api/admin/overrides", {
      tenant: slug,
      limit: "few",
      value: 50,
      endsAt: inAnHour(),
      reason: "x",
      ...change,
    });
    expect(reply.status).toBe(400);
    if (path !== "") expect(reply.body.error.path).toBe(path);
    expect(await count()).toBe(before);
    expect(await auditCount()).toBe(audits);
  });

  const token = (role: "viewer" | "editor", tenant = tenantId): Principal => ({
    kind: "admin-token",
    id: `t-${role}`,
    name: role,
    tenantId: tenant,
    role,
  });
  const input = (limit: string) => ({ tenant: slug, limit, value: 9, endsAt: inAnHour(), reason: "r" });

  it("a viewer may not create one; an editor may not override a plan's limit; another tenant's role sees nothing", async () => {
    const before = await count();
    await expect(createOverride(token("viewer"), input("few"), null)).rejects.toThrow(/editor/);
    await expect(createOverride(token("editor"), input("plan-cap"), null)).rejects.toThrow(/operator/);
    const otherId = (await db().tenant.findUniqueOrThrow({ where: { slug: other }, select: { id: true } }))
      .id;
    await expect(createOverride(token("editor", otherId), input("few"), null)).rejects.toThrow(/No tenant/);
    expect(await count()).toBe(before);
    // an operator may (the bootstrap token is one)
    const ok = await post("/api/admin/overrides", { ...input("plan-cap"), endsAt: inAnHour() });
    expect(ok.status).toBe(201);
  });

  it("another tenant's override id is not found; a tenant role may not list every tenant's", async () => {
    const otherId = (await db().tenant.findUniqueOrThrow({ where: { slug: other }, select: { id: true } }))
      .id;
    const mine = await db().override.findFirstOrThrow({ where: { tenantId }, select: { id: true } });
    const { endOverride } = await import("@/lib/data/overrides");
    await expect(endOverride(token("editor", otherId), mine.id, null)).rejects.toThrow(
      `No override ${mine.id}`,
    );
    const { listOverrides } = await import("@/lib/data/override-list");
    await expect(listOverrides(token("viewer"), {})).rejects.toThrow(/operator/);
    expect((await listOverrides(token("viewer"), { tenant: slug })).overrides.length).toBeGreaterThan(0);
  });
});

describe("overrides in the configuration document", () => {
  it("are exported with their times; importing the export changes nothing; a restore brings one back", async () => {
    const exported = await exportConfig(tester);
    const mine = (exported.overrides ?? []).filter((o) => o.tenant === slug);
    expect(mine.length).toBeGreaterThan(0);
    for (const o of mine) expect(Date.parse(o.endsAt)).toBeGreaterThan(Date.now());
    // this tenant's part only: other files change their tenants meanwhile
    const again = await importConfig(tester, {
      tenants: exported.tenants?.filter((t) => t.slug === slug),
      overrides: mine,
    });
    expect(again.changes.filter((c) => c.target === "override")).toEqual([]);
    // a document's override this database does not hold is created, audited
    const endsAt = new Date(Date.now() + 600_000).toISOString();
    const restored = await importConfig(tester, {
      tenants: exported.tenants?.filter((t) => t.slug === slug),
      overrides: [
        {
          tenant: slug,
          limit: "few",
          value: 4,
          startsAt: new Date().toISOString(),
          endsAt,
          reason: "restored",
          key: "batch",
        },
      ],
    });
    expect(restored.changes).toEqual([expect.objectContaining({ action: "create", target: "override" })]);
    const id = restored.changes[0]?.name ?? "";
    expect(await db().auditEntry.count({ where: { targetId: id, action: "override.create" } })).toBe(1);
  });

  it("refuses a document's override beyond 90 days or of an unknown limit, naming it, and changes nothing", async () => {
    const before = await db().override.count();
    const attempt = importConfig(tester, {
      tenants: (await exportConfig(tester)).tenants?.filter((t) => t.slug === slug),
      overrides: [
        {
          tenant: slug,
          limit: "few",
          value: 4,
          startsAt: new Date().toISOString(),
          endsAt: "2031-01-01T00:00:00Z",
          reason: "r",
        },
        {
          tenant: slug,
          limit: "nope",
          value: 4,
          startsAt: new Date().toISOString(),
          endsAt: new Date(Date.now() + 60_000).toISOString(),
          reason: "r",
        },
      ],
    });
    await expect(attempt).rejects.toBeInstanceOf(ValidationFailed);
    const error = (await attempt.catch((e: unknown) => e)) as ValidationFailed;
    expect(error.errors.map((e) => e.path)).toEqual(["overrides[0].endsAt", "overrides[1].limit"]);
    expect(await db().override.count()).toBe(before);
  });
});
