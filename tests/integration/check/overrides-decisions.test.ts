import { describe, expect, it } from "vitest";
import { APP_URL, APP_URL_2, post } from "./http";
import {
  createFor,
  few,
  limitsOf,
  settled,
  withOverrideTenants,
  when,
  type OverrideReply,
} from "./overrides-support";

// Temporary overrides (docs/overrides.md) deciding checks on the two running app processes:
// a limit of 0 blocks, "disabled" drops the limit, a key's or subject's override touches
// only that key's or subject's checks.

const t = withOverrideTenants();
const { slug } = t;
const create = (body: Record<string, unknown>) => createFor(slug, body);

describe("temporary overrides on two app processes", () => {
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
      // waited on with dry runs: a check counted before the block reached this server (a
      // loaded machine took long enough once) would spend the bucket the end is checked by
      await when(
        url,
        { tenant: slug, subject: ip, dryRun: true },
        (d) => d.reason === "rate_limited" && limitsOf(d)[0]?.name === "per-ip",
      );
      // then a real check: denied by the block, and (below) not counted
      const { decision } = await when(url, { tenant: slug, subject: ip }, (d) => !d.degraded);
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
    // another subject is untouched
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
      { apiKey: t.keys[`${slug}/batch`], dryRun: true },
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
