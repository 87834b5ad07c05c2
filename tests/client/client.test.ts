import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type CheckResult } from "@sluice/client";
import {
  APP_URL,
  BOOTSTRAP,
  clientTenant,
  closeClients,
  closedUrl,
  silentServer,
  type ClientTenant,
} from "./setup";

// createClient against the running Sluice: decisions, batches, the local deny path (no
// request while a denial's retry time runs), and every way of not reaching Sluice.

let tenant: ClientTenant;

beforeAll(async () => {
  tenant = await clientTenant("cc", ["a", "b", "c", "m"]);
});

afterAll(closeClients);

/** The real fetch, counting the requests that leave. */
function countingFetch(): { fetch: typeof fetch; count: () => number; paths: string[] } {
  let sent = 0;
  const paths: string[] = [];
  return {
    fetch: (input, init) => {
      sent += 1;
      paths.push(new URL(String(input)).pathname);
      return fetch(input, init);
    },
    count: () => sent,
    paths,
  };
}

describe("createClient", () => {
  it("check() answers the server's decision with its RateLimit headers", async () => {
    const client = createClient({ url: `${APP_URL}/`, token: BOOTSTRAP, timeoutMs: 2_000 });
    const result = await client.check({ tenant: tenant.slug, key: "a", route: "GET /users/1" });
    expect(result).toMatchObject({ allowed: true, reason: "ok", source: "sluice", degraded: false });
    expect(result.route).toBe("GET /users/:id");
    expect(result.headers).toEqual({
      "RateLimit-Policy": '"user-reads";q=3;w=3600',
      RateLimit: expect.stringMatching(/^"user-reads";r=2;t=\d+$/) as unknown as string,
    });
  });

  it("a denial is answered locally until its retry time, with no request", async () => {
    const counter = countingFetch();
    const client = createClient({ url: APP_URL, token: BOOTSTRAP, timeoutMs: 2_000, fetch: counter.fetch });
    const check = { apiKey: tenant.keys.b ?? "", route: "GET /users/:id" };
    const results: CheckResult[] = [];
    for (let i = 0; i < 6; i++) results.push(await client.check(check));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false, false]);
    expect(results.map((r) => r.source)).toEqual(["sluice", "sluice", "sluice", "sluice", "local", "local"]);
    expect(counter.count()).toBe(4);
    const local = results[5] as CheckResult;
    expect(local.reason).toBe("rate_limited");
    expect(local.retryAfterMs).toBeGreaterThan(0);
    expect(local.retryAfterMs).toBeLessThanOrEqual((results[3] as CheckResult).retryAfterMs ?? 0);
    expect(local.headers["Retry-After"]).toMatch(/^\d+$/);
    // another subject or a dry run is not the denied check: it goes to Sluice
    await client.check({ ...check, route: "POST /exports/csv" });
    await client.check({ ...check, dryRun: true });
    expect(counter.count()).toBe(6);
  });

  it("the local deny cache can be turned off", async () => {
    const counter = countingFetch();
    const client = createClient({
      url: APP_URL,
      token: BOOTSTRAP,
      fetch: counter.fetch,
      localDenyCache: false,
    });
    const check = { apiKey: tenant.keys.b ?? "", route: "GET /users/:id" };
    const a = await client.check(check);
    const b = await client.check(check);
    expect([a.allowed, b.allowed, a.source, b.source]).toEqual([false, false, "sluice", "sluice"]);
    expect(counter.count()).toBe(2);
  });

  it("checkBatch() answers in order, cached denials locally, invalid checks as fallbacks with the server's path", async () => {
    const counter = countingFetch();
    const client = createClient({ url: APP_URL, token: BOOTSTRAP, timeoutMs: 2_000, fetch: counter.fetch });
    const denied = { apiKey: tenant.keys.b ?? "", route: "GET /users/:id" };
    await client.check(denied);
    const results = await client.checkBatch([
      { tenant: tenant.slug, key: "c", route: "GET /users/1" },
      denied,
      { tenant: tenant.slug, cost: 0 },
    ]);
    expect(counter.count()).toBe(2);
    expect(results.map((r) => [r.allowed, r.source])).toEqual([
      [true, "sluice"],
      [false, "local"],
      [true, "fallback"],
    ]);
    expect(results[2]?.error).toMatchObject({
      kind: "http",
      code: "invalid_request",
      path: "checks[2].cost",
    });
  });

  it("microBatch: the checks of one turn leave as one batch, each decided exactly", async () => {
    const counter = countingFetch();
    const client = createClient({
      url: APP_URL,
      token: BOOTSTRAP,
      timeoutMs: 2_000,
      fetch: counter.fetch,
      microBatch: true,
    });
    const check = { apiKey: tenant.keys.m ?? "", route: "GET /users/:id" };
    const results = await Promise.all(Array.from({ length: 20 }, () => client.check(check)));
    expect(results.filter((r) => r.allowed)).toHaveLength(3);
    expect(results.filter((r) => r.reason === "rate_limited" && r.source === "sluice")).toHaveLength(17);
    expect(counter.paths).toEqual(["/api/check/batch"]);
    const lone = await client.check({ tenant: tenant.slug, dryRun: true });
    expect(lone.source).toBe("sluice");
    expect(counter.paths).toEqual(["/api/check/batch", "/api/check"]);
  });

  it("a refused token is a fallback decision with the server's code, reported to onError", async () => {
    const errors: string[] = [];
    const client = createClient({
      url: APP_URL,
      token: "st_not_a_real_token_0000000000000",
      onError: (error) => errors.push(error.code ?? error.kind),
    });
    const result = await client.check({ tenant: tenant.slug });
    expect(result).toMatchObject({ allowed: true, degraded: true, source: "fallback" });
    expect(result.error).toMatchObject({ kind: "http", status: 401 });
    expect(errors).toHaveLength(1);
  });

  it("unreachable: fail open and closed at once, degraded, never throwing", async () => {
    const url = await closedUrl();
    const open = await createClient({ url, token: BOOTSTRAP }).check({ tenant: tenant.slug });
    expect(open).toMatchObject({
      allowed: true,
      reason: "ok",
      degraded: true,
      source: "fallback",
      limits: [],
    });
    expect(open.error?.kind).toBe("network");
    const closed = await createClient({ url, token: BOOTSTRAP, onUnavailable: "closed", retries: 2 }).check({
      tenant: tenant.slug,
    });
    expect(closed).toMatchObject({ allowed: false, reason: "sluice_unavailable", degraded: true });
    expect(closed.headers).toEqual({});
  });

  it("slower than timeoutMs: the fallback comes at the deadline", async () => {
    const silent = await silentServer();
    try {
      const client = createClient({ url: silent.url, token: BOOTSTRAP, timeoutMs: 250 });
      const started = performance.now();
      const result = await client.check({ tenant: tenant.slug });
      const ms = performance.now() - started;
      expect(result.error?.kind).toBe("timeout");
      expect(result.allowed).toBe(true);
      expect(ms).toBeGreaterThanOrEqual(240);
      expect(ms).toBeLessThan(1_000);
    } finally {
      await silent.close();
    }
  });

  it("refuses bad options with the field named", () => {
    expect(() => createClient({ url: "sluice:3000", token: BOOTSTRAP })).toThrow(/^url: /);
    expect(() => createClient({ url: APP_URL, token: "" })).toThrow(/^token: /);
    expect(() => createClient({ url: APP_URL, token: BOOTSTRAP, timeoutMs: 0 })).toThrow(/^timeoutMs: /);
  });
});
