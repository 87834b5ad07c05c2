import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeClients, FREE_PLAN_OFF, serviceToken, setupTenants, unique } from "./setup";
import { APP_URL, BOOTSTRAP, check, post, waitForVersion, type ErrorAnswer } from "./http";

// Bad requests and credentials: each bad field answers 400 invalid_request naming it, an
// oversized body 413, a missing or unknown token 401, a token for other tenants 403 (by name).

const slug = unique("inp");
const other = unique("inp-other");
let keys: Record<string, string> = {};
let limited = "";
let everywhere = "";

beforeAll(async () => {
  const setup = await setupTenants([
    { slug, plan: "free", limits: FREE_PLAN_OFF, keys: [{ name: "k", limits: [] }] },
    { slug: other, plan: "free", limits: FREE_PLAN_OFF, keys: [{ name: "k", limits: [] }] },
  ]);
  keys = setup.keys;
  limited = await serviceToken([slug]);
  everywhere = await serviceToken();
  await waitForVersion(setup.version + 2);
});

afterAll(closeClients);

const ok = () => ({ tenant: slug });

describe("400 invalid_request, naming the field", () => {
  const table: Array<[string, unknown, string]> = [
    ["neither apiKey nor tenant", { route: "GET /x" }, "apiKey"],
    ["both apiKey and tenant", { apiKey: "sk_x", tenant: "acme" }, "tenant"],
    ["key with apiKey", { apiKey: "sk_x", key: "k" }, "key"],
    ["apiKey empty", { apiKey: "" }, "apiKey"],
    ["apiKey a number", { apiKey: 42 }, "apiKey"],
    ["tenant not a slug", { tenant: "Not A Slug" }, "tenant"],
    ["key not a name", { tenant: "acme", key: "" }, "key"],
    ["route without METHOD", { tenant: "acme", route: "/v1/items" }, "route"],
    ["route a number", { tenant: "acme", route: 7 }, "route"],
    ["subject empty", { tenant: "acme", subject: "" }, "subject"],
    ["subject over 256", { tenant: "acme", subject: "x".repeat(257) }, "subject"],
    ["cost 0", { tenant: "acme", cost: 0 }, "cost"],
    ["cost negative", { tenant: "acme", cost: -3 }, "cost"],
    ["cost fractional", { tenant: "acme", cost: 2.5 }, "cost"],
    ["cost over 1,000,000", { tenant: "acme", cost: 1_000_001 }, "cost"],
    ["cost a string", { tenant: "acme", cost: "5" }, "cost"],
    ["dryRun a string", { tenant: "acme", dryRun: "true" }, "dryRun"],
    ["an unknown field", { tenant: "acme", costs: 5 }, "costs"],
  ];
  it.each(table)("%s", async (_name, body, path) => {
    const answer = await post<ErrorAnswer>("/api/check", body);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("invalid_request");
    expect(answer.body.error.path).toBe(path);
    expect(answer.body.error.message).toContain(path);
  });

  it.each([
    ["malformed JSON", "{ not json"],
    ["a JSON array", "[1, 2]"],
    ["a JSON string", '"check"'],
    ["an empty body", ""],
  ])("%s", async (_name, raw) => {
    const answer = await post<ErrorAnswer>("/api/check", null, { raw });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("invalid_request");
  });

  it("the edges of each range are accepted", async () => {
    const answer = await check({
      tenant: slug,
      subject: "s".repeat(256),
      cost: 1_000_000,
      dryRun: true,
      route: "GET /",
    });
    expect(answer.status).toBe(200);
  });
});

describe("413 over 64 KiB", () => {
  it("refuses a 1 MB body", async () => {
    const raw = JSON.stringify({ tenant: slug, subject: "x".repeat(1024 * 1024) });
    const answer = await post<ErrorAnswer>("/api/check", null, { raw });
    expect(answer.status).toBe(413);
    expect(answer.body.error.code).toBe("payload_too_large");
  });

  it("refuses a body just over 64 KiB sent without Content-Length", async () => {
    const chunk = new TextEncoder().encode(" ".repeat(16 * 1024));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const response = await fetch(`${APP_URL}/api/check`, {
      method: "POST",
      headers: { authorization: `Bearer ${BOOTSTRAP}` },
      body: stream,
      duplex: "half",
    } as RequestInit & { duplex: "half" });
    expect(response.status).toBe(413);
  });
});

describe("credentials", () => {
  it.each([
    ["no Authorization header", null],
    ["an unknown token", "st_unknown_token_000000000000000000"],
    ["an empty bearer", ""],
  ])("401 for %s", async (_name, token) => {
    const answer = await post<ErrorAnswer>("/api/check", ok(), { token });
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe("unauthorized");
  });

  it("401 for a scheme other than Bearer, and on the batch endpoint", async () => {
    const response = await fetch(`${APP_URL}/api/check`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from("a:b").toString("base64")}` },
      body: JSON.stringify(ok()),
    });
    expect(response.status).toBe(401);
    const batch = await post<ErrorAnswer>("/api/check/batch", { checks: [ok()] }, { token: null });
    expect(batch.status).toBe(401);
  });

  it("service tokens: an unrestricted one checks any tenant; the bootstrap token too", async () => {
    expect((await check(ok(), { token: everywhere })).status).toBe(200);
    expect((await check({ tenant: other }, { token: everywhere })).status).toBe(200);
    expect((await check({ tenant: other }, { token: BOOTSTRAP })).status).toBe(200);
  });

  it("a token limited to one tenant checks it, and gets 403 for another by name (by key: tests/security)", async () => {
    expect((await check(ok(), { token: limited })).status).toBe(200);
    expect((await check({ apiKey: keys[`${slug}/k`] }, { token: limited })).status).toBe(200);
    const byName = await post<ErrorAnswer>("/api/check", { tenant: other }, { token: limited });
    expect(byName.status).toBe(403);
    expect(byName.body.error).toMatchObject({ code: "forbidden", path: "tenant" });
    // another tenant's key answers as an unknown key (tests/security/check-token-scope.test.ts)
    const byKey = await post<{ reason: string }>(
      "/api/check",
      { apiKey: keys[`${other}/k`] },
      { token: limited },
    );
    expect(byKey.status).toBe(200);
    expect(byKey.body.reason).toBe("unknown_key");
    // a tenant that does not exist is as forbidden as one that does: nothing leaks
    const unknown = await post<ErrorAnswer>("/api/check", { tenant: unique("ghost") }, { token: limited });
    expect(unknown.status).toBe(403);
  });

  it("a limited token gets a per-item 403 in a batch", async () => {
    const answer = await post<{ results: Array<ErrorAnswer | { allowed: boolean }> }>(
      "/api/check/batch",
      { checks: [ok(), { tenant: other }] },
      { token: limited },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.results[0]).toMatchObject({ allowed: true });
    expect(answer.body.results[1]).toMatchObject({ error: { code: "forbidden", path: "checks[1].tenant" } });
  });
});

describe("methods", () => {
  it("405 for GET /api/check", async () => {
    const response = await fetch(`${APP_URL}/api/check`);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });
});
