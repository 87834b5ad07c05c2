import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeClients, FREE_PLAN_OFF, setupTenants, unique } from "./setup";
import { decide, waitForVersion, type Decision } from "./http";

// What a decision means across limits: all-or-nothing over every level, shadow limits that
// never block, delays that grow up to maxDelay and then turn into a rejection, dry runs.

const slug = unique("sem");
let keys: Record<string, string> = {};
const ROUTE = `POST /sem-${slug}/orders`;

const remainingOf = (decision: Decision, name: string): number | null | undefined =>
  decision.limits.find((l) => l.name === name)?.remaining;

beforeAll(async () => {
  const setup = await setupTenants([
    {
      slug,
      plan: "free",
      limits: [
        ...FREE_PLAN_OFF,
        { name: "tenant-wide", by: "tenant", algorithm: "fixed_window", limit: 100, window: "1h" },
        {
          name: "shadow-tight",
          by: "tenant",
          algorithm: "fixed_window",
          limit: 1,
          window: "1h",
          mode: "shadow",
        },
      ],
      routes: [
        {
          pattern: ROUTE,
          limits: [{ name: "orders", by: "subject", algorithm: "sliding_window", limit: 50, window: "1h" }],
        },
        {
          pattern: `POST /sem-${slug}/exports/:format`,
          limits: [
            {
              name: "exports",
              by: "key",
              algorithm: "gcra",
              limit: 2,
              window: "1s",
              burst: 1,
              action: "delay",
              maxDelay: "2s",
            },
          ],
        },
      ],
      keys: [
        {
          name: "tight",
          limits: [{ name: "key-two", by: "key", algorithm: "token_bucket", limit: 2, window: "1h" }],
        },
        { name: "plain", limits: [] },
      ],
    },
  ]);
  keys = setup.keys;
  await waitForVersion(setup.version);
});

afterAll(closeClients);

describe("all-or-nothing across levels", () => {
  it("a denial by the key limit consumes nothing in the tenant and route limits", async () => {
    const body = { apiKey: keys[`${slug}/tight`], route: ROUTE, subject: "u1" };
    const first = await decide(body);
    expect(first.limits.map((l) => [l.name, l.level])).toEqual([
      ["tenant-wide", "tenant"],
      ["shadow-tight", "tenant"],
      ["key-two", "key"],
      ["orders", "route"],
    ]);
    expect(first).toMatchObject({ allowed: true, route: ROUTE });
    await decide(body);
    const denied = await decide(body);
    expect(denied).toMatchObject({ allowed: false, reason: "rate_limited", limit: 2 });
    expect(remainingOf(denied, "tenant-wide")).toBe(98);
    expect(remainingOf(denied, "orders")).toBe(48);
    const again = await decide({ ...body, dryRun: true });
    expect(remainingOf(again, "tenant-wide")).toBe(98);
    // another key of the tenant still counts from 98: the denials took nothing
    const other = await decide({ apiKey: keys[`${slug}/plain`], route: ROUTE, subject: "u1" });
    expect(other).toMatchObject({ allowed: true });
    expect(remainingOf(other, "tenant-wide")).toBe(97);
    expect(remainingOf(other, "orders")).toBe(47);
  });

  it("dryRun decides and reports without consuming", async () => {
    const body = { apiKey: keys[`${slug}/plain`], route: ROUTE, subject: "dry" };
    const before = await decide({ ...body, dryRun: true });
    const after = await decide({ ...body, dryRun: true });
    expect(before.allowed).toBe(true);
    expect(remainingOf(after, "orders")).toBe(remainingOf(before, "orders"));
    expect(remainingOf(before, "orders")).toBe(49); // as the check would leave it
  });
});

describe("shadow limits", () => {
  it("are reported as rejecting but never block", async () => {
    const body = { apiKey: keys[`${slug}/plain`], subject: "shadow-watch" };
    for (let i = 0; i < 4; i++) {
      const decision = await decide(body);
      expect(decision.allowed).toBe(true);
      expect(decision.reason).toBe("ok");
      expect(decision.limits.find((l) => l.name === "shadow-tight")).toMatchObject({
        mode: "shadow",
        allowed: false,
      });
    }
  });
});

describe("action delay", () => {
  it("hands out growing waits up to maxDelay, then rejects", async () => {
    const body = { apiKey: keys[`${slug}/plain`], route: `POST /sem-${slug}/exports/csv` };
    const waits: number[] = [];
    let rejected: Decision | null = null;
    for (let i = 0; i < 12 && !rejected; i++) {
      const decision = await decide(body);
      if (decision.allowed) waits.push(decision.waitMs);
      else rejected = decision;
    }
    expect(waits[0]).toBe(0);
    const positive = waits.filter((w) => w > 0);
    expect(positive.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < positive.length; i++) expect(positive[i]).toBeGreaterThan(positive[i - 1] ?? 0);
    expect(Math.max(...waits)).toBeLessThanOrEqual(2_000);
    expect(rejected).toMatchObject({ allowed: false, reason: "rate_limited", waitMs: 0 });
    expect(rejected?.route).toBe(`POST /sem-${slug}/exports/:format`);
  });
});
