import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeClients, FREE_PLAN_OFF, setupTenants, unique } from "./setup";
import { decide, post, waitForVersion, type Decision, type ErrorAnswer } from "./http";

// POST /api/check/batch: 1..1000 checks decided one by one, answers in order, a bad check
// answered with its own error in its place.

const slug = unique("bat");
let keys: Record<string, string> = {};

type Results = { results: Array<Decision | ErrorAnswer> };

beforeAll(async () => {
  const setup = await setupTenants([
    {
      slug,
      plan: "free",
      limits: [
        ...FREE_PLAN_OFF,
        { name: "per-subject", by: "subject", algorithm: "fixed_window", limit: 600, window: "1h" },
      ],
      keys: [{ name: "k", limits: [] }],
    },
  ]);
  keys = setup.keys;
  await waitForVersion(setup.version);
});

afterAll(closeClients);

describe("batch", () => {
  it("answers each check in order, errors in their place", async () => {
    const answer = await post<Results>("/api/check/batch", {
      checks: [
        { apiKey: keys[`${slug}/k`], subject: "a" },
        { tenant: slug, cost: 0 },
        { apiKey: "sk_unknown_1234567890" },
        { tenant: slug, subject: "a", apiKey: "x" },
        "not an object",
        { tenant: slug, key: "k", subject: "a", dryRun: true },
      ],
    });
    expect(answer.status).toBe(200);
    const [first, second, third, fourth, fifth, sixth] = answer.body.results;
    expect(first).toMatchObject({ allowed: true, reason: "ok", tenant: slug, key: "k" });
    expect(second).toMatchObject({ error: { code: "invalid_request", path: "checks[1].cost" } });
    expect(third).toMatchObject({ allowed: false, reason: "unknown_key" });
    expect(fourth).toMatchObject({ error: { code: "invalid_request", path: "checks[3].tenant" } });
    expect(fifth).toMatchObject({ error: { code: "invalid_request", path: "checks[4]" } });
    expect(sixth).toMatchObject({ allowed: true, limits: [{ name: "per-subject", remaining: 598 }] });
    expect(answer.body.results).toHaveLength(6);
  });

  it("1000 checks against one limit of 600: exactly 600 admitted, each decided on its own", async () => {
    const checks = Array.from({ length: 1000 }, () => ({ tenant: slug, subject: "crowd" }));
    const answer = await post<Results>("/api/check/batch", { checks });
    expect(answer.status).toBe(200);
    const decisions = answer.body.results as Decision[];
    expect(decisions.filter((d) => d.allowed)).toHaveLength(600);
    expect(decisions.filter((d) => d.reason === "rate_limited")).toHaveLength(400);
    expect(decisions.every((d) => d.degraded === false)).toBe(true);
    const after = await decide({ tenant: slug, subject: "crowd" });
    expect(after).toMatchObject({ allowed: false, reason: "rate_limited" });
  });

  it.each([
    ["no checks", { checks: [] }, "checks"],
    ["1001 checks", { checks: Array.from({ length: 1001 }, () => ({ tenant: slug })) }, "checks"],
    ["checks not an array", { checks: { tenant: slug } }, "checks"],
    ["no checks field", {}, "checks"],
  ])("400 for %s", async (_name, body, path) => {
    const answer = await post<ErrorAnswer>("/api/check/batch", body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: "invalid_request", path });
  });
});
