import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeClients, FREE_PLAN_OFF, serviceToken, setupTenants, unique } from "../integration/check/setup";
import { post, waitForVersion, type Answer } from "../integration/check/http";

// No leak across tenants: a service token limited to tenant A, given tenant B's API key, must answer
// exactly as for an unknown key (a 403 naming B told the caller the key is valid and whose
// it is). Over HTTP against the running app (the lean front), on a first check and on one
// the app already holds resolved (check-shapes.ts), on /api/check and in a batch.

const mine = unique("scope-a");
const theirs = unique("scope-b");
const perKey = [
  ...FREE_PLAN_OFF,
  { name: "per-key", by: "key" as const, algorithm: "fixed_window" as const, limit: 1000, window: "1h" },
];
let keys: Record<string, string> = {};
let limited = "";
let everywhere = "";

beforeAll(async () => {
  const setup = await setupTenants([
    { slug: mine, plan: "free", limits: perKey, keys: [{ name: "k", limits: [] }] },
    {
      slug: theirs,
      plan: "free",
      limits: perKey,
      keys: [
        { name: "k", limits: [] },
        { name: "warm", limits: [] },
      ],
    },
  ]);
  keys = setup.keys;
  limited = await serviceToken([mine]);
  everywhere = await serviceToken();
  await waitForVersion(setup.version + 2);
});

afterAll(closeClients);

/** What an answer says, without what differs between any two requests. */
function shape(answer: Answer): { status: number; body: unknown; headers: string[] } {
  const headers = [...answer.headers.keys()].filter((h) => !["date", "x-request-id"].includes(h)).sort();
  return { status: answer.status, body: answer.body, headers };
}

describe("a token limited to one tenant, given another tenant's API key", () => {
  it("answers as for an unknown key, not 403 naming the tenant", async () => {
    const unknown = await post("/api/check", { apiKey: `sk_${"0".repeat(32)}` }, { token: limited });
    const other = await post("/api/check", { apiKey: keys[`${theirs}/k`] }, { token: limited });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({ reason: "unknown_key", tenant: null, key: null });
    expect(shape(other)).toEqual(shape(unknown));
    expect(JSON.stringify(other.body)).not.toContain(theirs);
  });

  it("also when the app already resolved that key for a token that may check it", async () => {
    const warm = keys[`${theirs}/warm`];
    expect((await post("/api/check", { apiKey: warm }, { token: everywhere })).body).toMatchObject({
      tenant: theirs,
    });
    const unknown = await post("/api/check", { apiKey: `sk_${"1".repeat(32)}` }, { token: limited });
    const other = await post("/api/check", { apiKey: warm }, { token: limited });
    expect(shape(other)).toEqual(shape(unknown));
  });

  it("in a batch, the item reads as an unknown key", async () => {
    const answer = await post<{ results: unknown[] }>(
      "/api/check/batch",
      { checks: [{ apiKey: keys[`${theirs}/k`] }, { apiKey: `sk_${"2".repeat(32)}` }] },
      { token: limited },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.results[0]).toEqual(answer.body.results[1]);
  });

  it("its own tenant's key still checks, and naming another tenant outright is still 403", async () => {
    expect((await post("/api/check", { apiKey: keys[`${mine}/k`] }, { token: limited })).body).toMatchObject({
      tenant: mine,
      allowed: true,
    });
    const byName = await post("/api/check", { tenant: theirs }, { token: limited });
    expect(byName.status).toBe(403);
  });
});
