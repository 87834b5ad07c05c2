import { describe, expect, it } from "vitest";
import { db } from "@/lib/control/data/db";
import { APP_URL, APP_URL_2, decide } from "./http";
import { createFor, few, nextSecond, settled, withOverrideTenants, when } from "./overrides-support";

// Temporary overrides (docs/overrides.md) on the two running app processes: each begins and
// ends at its times, to the second, with no config change at either moment, and the
// counters stay the limit's (an override never resets usage).

const t = withOverrideTenants();
const { slug } = t;
const create = (body: Record<string, unknown>) => createFor(slug, body);

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
      // the override's version reaches each server within a second or so (longer when loaded)
      const { decision: d } = await when(url, probe, (x) => !x.degraded && x.configVersion > version);
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
    expect(
      await db().auditEntry.count({ where: { tenantId: t.tenantId, at: { gt: new Date(startsAt - 500) } } }),
    ).toBe(0);
  }, 40_000);
});
