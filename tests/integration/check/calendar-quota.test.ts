import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportConfig } from "@/lib/control/data/export-config";
import { periodBounds } from "@/lib/shared/calendar";
import { closeClients, FREE_PLAN_OFF, setupTenants, tester, unique } from "./setup";
import { APP_URL_2, check, waitForVersion } from "./http";

// A calendar quota through the running apps (docs/algorithms.md, "Calendar quotas"): a
// tenant in Europe/Berlin with a daily quota of 2, checked on both apps (one counter), the
// denial's reset and Retry-After at Berlin's next midnight, and the fields surviving an
// export (the database's columns).

const slug = unique("cal");

beforeAll(async () => {
  const { version } = await setupTenants([
    {
      slug,
      plan: "free",
      timeZone: "Europe/Berlin",
      limits: [
        ...FREE_PLAN_OFF,
        { name: "daily", by: "tenant", algorithm: "calendar", limit: 2, period: "day" },
      ],
    },
  ]);
  await waitForVersion(version);
  await waitForVersion(version, APP_URL_2);
});

afterAll(closeClients);

describe("a calendar quota on the running apps", () => {
  it("admits its limit across both apps and resets at the zone's midnight", async () => {
    const first = await check({ tenant: slug });
    const second = await check({ tenant: slug }, { url: APP_URL_2 });
    const before = Date.now();
    const denied = await check({ tenant: slug });
    const after = Date.now();
    expect([first.body.allowed, second.body.allowed, denied.body.allowed]).toEqual([true, true, false]);
    const end = periodBounds("day", "Europe/Berlin", before).end;
    const resetMs = denied.body.resetMs ?? -1;
    // Redis' clock and this process's may differ a little: a second either way
    expect(resetMs).toBeGreaterThanOrEqual(end - after - 1_000);
    expect(resetMs).toBeLessThanOrEqual(end - before + 1_000);
    expect(denied.body.retryAfterMs).toBe(resetMs);
    expect(Number(denied.headers.get("retry-after"))).toBe(Math.ceil(resetMs / 1_000));
    expect(denied.body.limits.find((l) => l.name === "daily")).toMatchObject({
      algorithm: "calendar",
      limit: 2,
      remaining: 0,
    });
  });

  it("exports the tenant's zone and the limit's period as written", async () => {
    const document = await exportConfig(tester);
    const tenant = document.tenants?.find((t) => t.slug === slug);
    expect(tenant?.timeZone).toBe("Europe/Berlin");
    expect(tenant?.limits.find((l) => l.name === "daily")).toEqual({
      name: "daily",
      by: "tenant",
      algorithm: "calendar",
      limit: 2,
      period: "day",
    });
  });
});
