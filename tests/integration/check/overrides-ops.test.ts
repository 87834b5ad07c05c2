import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CounterState } from "@/lib/control/data/counters";
import type { LimitState } from "@/lib/control/data/limit-report";
import type { ResetResult } from "@/lib/control/data/counter-reset";
import type { Simulation } from "@/lib/control/data/simulate-check";
import { closeClients, FREE_PLAN_OFF, setupTenants, unique } from "./setup";
import { APP_URL, BOOTSTRAP, decide, post, sleep, waitForVersion, type Decision } from "./http";

// The ops tools see temporary overrides as /api/check applies them (docs/overrides.md): the
// admin API's state and simulator report each limit with the override in force (its value,
// a block as a denial until it ends, a disabled limit left out and said why), a subject's
// override only for that subject, and the plain limit again once it has ended; a reset
// during an override clears the counter the check counts in. All against the running app,
// real PostgreSQL and Redis.

const slug = unique("ovr-ops");
let keys: Record<string, string> = {};

type OverrideReply = { id: string; endsAt: string };
type Reported = Decision["limits"][number] & { override?: { id: string; endsAt: string } };

beforeAll(async () => {
  const hour = { algorithm: "fixed_window" as const, window: "1h" };
  const setup = await setupTenants(
    [
      {
        slug,
        plan: "free",
        limits: [
          ...FREE_PLAN_OFF,
          { name: "few", by: "tenant" as const, limit: 3, ...hour },
          { name: "gone", by: "tenant" as const, limit: 100, ...hour },
          {
            name: "per-ip",
            by: "subject" as const,
            algorithm: "token_bucket" as const,
            limit: 5,
            window: "1h",
          },
        ],
      },
    ],
    { keysWithoutLimits: [{ tenant: slug, name: "batch" }] },
  );
  keys = setup.keys;
  await waitForVersion(setup.version);
});

afterAll(closeClients);

async function create(body: Record<string, unknown>): Promise<OverrideReply> {
  const reply = await post<OverrideReply>("/api/admin/overrides", {
    tenant: slug,
    reason: "ops test",
    ...body,
  });
  if (reply.status !== 201) throw new Error(`override: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

async function get<T>(path: string, query: Record<string, string>): Promise<T> {
  const response = await fetch(`${APP_URL}${path}?${new URLSearchParams({ tenant: slug, ...query })}`, {
    headers: { authorization: `Bearer ${BOOTSTRAP}` },
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

const state = (query: Record<string, string> = {}) => get<CounterState>("/api/admin/state", query);
const simulate = (query: Record<string, string> = {}) => get<Simulation>("/api/admin/simulate", query);
const named = (limits: readonly LimitState[], name: string): LimitState | undefined =>
  limits.find((l) => l.name === name);

/** Polls the check (a dry run) until `accept`; a degraded answer (loaded machine) is asked again. */
async function checkUntil(
  body: Record<string, unknown>,
  accept: (d: Decision) => boolean,
): Promise<Decision> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const decision = await decide({ tenant: slug, dryRun: true, ...body });
    if (!decision.degraded && accept(decision)) return decision;
    if (Date.now() > deadline) throw new Error(`check not seen: ${JSON.stringify(decision)}`);
    await sleep(50);
  }
}

/** One counted check (a degraded answer counted nothing: sent again). */
async function spend(body: Record<string, unknown>): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const decision = await decide("apiKey" in body ? body : { tenant: slug, ...body });
    if (!decision.degraded) {
      expect(decision.allowed).toBe(true);
      return;
    }
    await sleep(100);
  }
  throw new Error("every check came back degraded");
}

const reported = (d: Decision, name: string): Reported | undefined =>
  (d.limits as Reported[]).find((l) => l.name === name);

describe("state and the simulator apply the overrides in force, as the check does", () => {
  it("report a raised limit with its override while it runs, and the plain limit once it has ended", async () => {
    await spend({}); // one unit of few used
    const endsAt = new Date(Date.now() + 6_000).toISOString();
    const raise = await create({ limit: "few", value: 10, endsAt });
    const expected = { id: raise.id, value: 10, endsAt: raise.endsAt };
    const checked = await checkUntil({}, (d) => reported(d, "few")?.limit === 10);
    expect(reported(checked, "few")?.override).toEqual({ id: raise.id, endsAt: raise.endsAt });
    const during = await state();
    expect(named(during.limits, "few")).toMatchObject({ limit: 10, remaining: 9, override: expected });
    expect(named(during.limits, "gone")?.override).toBeNull();
    // a check of cost 9 passes only under the override (the plain limit has 2 left)
    const sim = await simulate({ cost: "9" });
    expect(sim).toMatchObject({ allowed: true, reason: "ok" });
    expect(named(sim.limits, "few")).toMatchObject({ limit: 10, override: expected, allowsThisCheck: true });
    await sleep(Math.max(0, Date.parse(raise.endsAt) - Date.now()) + 50);
    const after = await state();
    // the used unit still counts against the plain 3
    expect(named(after.limits, "few")).toMatchObject({ limit: 3, remaining: 2, override: null });
    expect(named((await simulate()).limits, "few")).toMatchObject({ limit: 3, override: null });
    const plain = await checkUntil({}, (d) => reported(d, "few")?.limit === 3);
    expect(reported(plain, "few")?.override).toBeUndefined();
  }, 30_000);

  it("report a subject's block only for that subject, denied until it ends, as the check decides", async () => {
    const ip = "203.0.113.21";
    const block = await create({
      subject: ip,
      limit: "per-ip",
      value: 0,
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const checked = await checkUntil({ subject: ip }, (d) => d.reason === "rate_limited");
    expect(checked.limits.map((l) => l.name)).toEqual(["per-ip"]);
    const mine = named((await state({ subject: ip })).limits, "per-ip");
    expect(mine).toMatchObject({
      limit: 0,
      remaining: 0,
      wouldAllow: false,
      override: { id: block.id, value: 0, endsAt: block.endsAt },
    });
    expect(mine?.retryAfterMs).toBeGreaterThan(3_500_000);
    const sim = await simulate({ subject: ip });
    expect(sim).toMatchObject({ allowed: checked.allowed, reason: checked.reason });
    expect(sim.retryAfterMs).toBeGreaterThan(3_500_000);
    expect(sim.limits.find((l) => l.deciding)).toMatchObject({ name: "per-ip", allowsThisCheck: false });
    // another subject, and no subject at all, see the plain limit
    const neighbour = await state({ subject: "198.51.100.21" });
    expect(named(neighbour.limits, "per-ip")).toMatchObject({ limit: 5, override: null, wouldAllow: true });
    expect((await simulate({ subject: "198.51.100.21" })).allowed).toBe(true);
    expect((await state()).skipped).toEqual([expect.objectContaining({ name: "per-ip", override: null })]);
    // ended: the plain limit again for the subject, whose bucket the block never touched
    expect((await post(`/api/admin/overrides/${block.id}/end`, {})).status).toBe(200);
    expect(named((await state({ subject: ip })).limits, "per-ip")).toMatchObject({
      limit: 5,
      remaining: 5,
      override: null,
    });
  }, 30_000);

  it("leave out a disabled limit, saying which override disables it; a key's override only for that key", async () => {
    const endsAt = new Date(Date.now() + 60_000).toISOString();
    const off = await create({ limit: "gone", value: "disabled", endsAt });
    const forKey = await create({ key: "batch", limit: "few", value: 500, endsAt });
    await checkUntil({ key: "batch" }, (d) => reported(d, "few")?.limit === 500 && !reported(d, "gone"));
    const keyed = await state({ key: "batch" });
    expect(named(keyed.limits, "few")).toMatchObject({ limit: 500, override: { id: forKey.id, value: 500 } });
    expect(named(keyed.limits, "gone")).toBeUndefined();
    expect(keyed.skipped).toContainEqual(
      expect.objectContaining({
        name: "gone",
        override: { id: off.id, value: "disabled", endsAt: off.endsAt },
      }),
    );
    const sim = await simulate({ key: "batch" });
    expect(sim.limits.map((l) => l.name)).not.toContain("gone");
    expect(sim.skipped.map((s) => s.name)).toContain("gone");
    // without the key: the tenant's 3, but gone is disabled for every check
    const tenantWide = await state();
    expect(named(tenantWide.limits, "few")).toMatchObject({ limit: 3, override: null });
    expect(named(tenantWide.limits, "gone")).toBeUndefined();
    for (const id of [off.id, forKey.id])
      expect((await post(`/api/admin/overrides/${id}/end`, {})).status).toBe(200);
    expect(named((await state()).limits, "gone")).toMatchObject({ limit: 100, override: null });
  }, 30_000);
});

describe("reset during an override", () => {
  it("clears the counter the check counts in, which the plain limit then finds empty", async () => {
    const ip = "203.0.113.22";
    const raise = await create({
      subject: ip,
      limit: "per-ip",
      value: 50,
      endsAt: new Date(Date.now() + 60_000).toISOString(),
    });
    // the tenant's few (3 an hour, partly used above) out of the way meanwhile
    const few = await create({
      limit: "few",
      value: "disabled",
      endsAt: new Date(Date.now() + 60_000).toISOString(),
    });
    await checkUntil({ subject: ip }, (d) => reported(d, "per-ip")?.limit === 50 && !reported(d, "few"));
    for (let i = 0; i < 3; i++) await spend({ apiKey: keys[`${slug}/batch`], subject: ip });
    expect(named((await state({ subject: ip })).limits, "per-ip")).toMatchObject({
      limit: 50,
      remaining: 47,
    });
    const reset = await post<ResetResult>("/api/admin/reset", { tenant: slug, limit: "per-ip", subject: ip });
    expect(reset.status).toBe(200);
    expect(reset.body.deleted).toBeGreaterThan(0);
    // the check itself sees the whole bucket: 50, less its own dry-run unit
    const checked = await checkUntil({ subject: ip }, (d) => reported(d, "per-ip")?.remaining === 49);
    expect(reported(checked, "per-ip")?.override?.id).toBe(raise.id);
    expect(named((await state({ subject: ip })).limits, "per-ip")).toMatchObject({
      limit: 50,
      remaining: 50,
    });
    for (const id of [raise.id, few.id])
      expect((await post(`/api/admin/overrides/${id}/end`, {})).status).toBe(200);
    expect(named((await state({ subject: ip })).limits, "per-ip")).toMatchObject({
      limit: 5,
      remaining: 5,
      override: null,
    });
  }, 30_000);
});
