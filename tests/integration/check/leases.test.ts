import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, sluiceExpress } from "@sluice/client";
import type { TenantDoc } from "@/lib/control/config/document";
import { waitFor } from "../../wait-for";
import { closeClients, FREE_PLAN_OFF, serviceToken, setupTenants, unique } from "./setup";
import { APP_URL, APP_URL_2, BOOTSTRAP, decide, post, waitForVersion } from "./http";

// Concurrency limits on the running apps (docs/algorithms.md, Concurrency limits): leases
// answered by one server and released through the other, idempotent release, the draft-11
// quota unit, batches, refusals, and the client's Express middleware releasing when the
// handler throws and when the client goes away.

const slug = unique("inflight");
const otherSlug = unique("inflight-other");
let apiKey = "";
const servers: Server[] = [];

function tenant(slug: string): TenantDoc {
  return {
    slug,
    name: slug,
    plan: "free",
    status: "active",
    limits: [
      ...FREE_PLAN_OFF,
      { name: "in-flight", by: "key", algorithm: "concurrency", limit: 2, window: "1m" },
    ],
    routes: [],
    keys: [{ name: "main", limits: [] }],
  } as TenantDoc;
}

beforeAll(async () => {
  const setup = await setupTenants([tenant(slug), tenant(otherSlug)]);
  apiKey = setup.keys[`${slug}/main`] ?? "";
  await waitForVersion(setup.version);
  await waitForVersion(setup.version, APP_URL_2);
});

afterAll(async () => {
  for (const server of servers) server.close();
  await closeClients();
});

const release = (body: unknown, token: string = BOOTSTRAP, url = APP_URL) =>
  post<{ released?: boolean; results?: unknown[]; error?: { path?: string } }>("/api/check/release", body, {
    token,
    url,
  });

/** Whether a slot is free now (a dry run takes nothing). */
const free = async (): Promise<boolean> => (await decide({ apiKey, dryRun: true })).allowed;

/** Whether no lease is held: a dry run admitted reports the remaining after a lease of its own (2 - 0 - 1). */
const idle = async (): Promise<boolean> =>
  (await decide({ apiKey, dryRun: true })).limits.find((l) => l.name === "in-flight")?.remaining === 1;

describe("concurrency limits over HTTP", () => {
  it("answers leases on both servers, denies past the limit, and releases through either, once", async () => {
    const first = await post<Record<string, unknown>>("/api/check", { apiKey });
    expect(first.body).toMatchObject({ allowed: true, remaining: 1 });
    expect(first.headers.get("ratelimit-policy")).toBe('"in-flight";q=2;qu="concurrent-requests"');
    const second = await decide({ apiKey }, { url: APP_URL_2 });
    expect(second).toMatchObject({ allowed: true, remaining: 0 });
    const denied = await decide({ apiKey });
    expect(denied).toMatchObject({ allowed: false, reason: "rate_limited" });
    expect(denied.retryAfterMs).toBeGreaterThan(0);
    expect(denied.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(denied.lease).toBeUndefined();
    const lease = first.body.lease as string;
    expect(typeof lease).toBe("string");
    expect((await release({ lease }, BOOTSTRAP, APP_URL_2)).body).toEqual({ released: true });
    expect((await release({ lease })).body).toEqual({ released: false });
    // one slot back, not two
    const again = await decide({ apiKey });
    expect(again).toMatchObject({ allowed: true, remaining: 0 });
    const after = await release({ leases: [second.lease, again.lease, lease] });
    expect(after.body).toEqual({ results: [{ released: true }, { released: true }, { released: false }] });
    expect(await free()).toBe(true);
  });

  it("refuses a release by a token of another tenant, and a made-up lease", async () => {
    const taken = await decide({ apiKey });
    const other = await serviceToken([otherSlug]);
    // a new token reaches the fronts with the configuration it is published in
    let refused = await release({ lease: taken.lease }, other);
    await waitFor(
      async () => (refused = await release({ lease: taken.lease }, other)).status !== 401,
      "the new token known to the front",
    );
    expect(refused.status).toBe(403);
    const bad = await release({ lease: "not-a-lease" });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.path).toBe("lease");
    expect((await release({ leese: "x" })).status).toBe(400);
    expect((await release({ lease: taken.lease })).body).toEqual({ released: true });
  });

  it("answers a lease per admitted check of a batch", async () => {
    const batch = await post<{ results: Array<{ allowed: boolean; lease?: string }> }>("/api/check/batch", {
      checks: [{ apiKey }, { apiKey }, { apiKey }],
    });
    const results = batch.body.results;
    expect(results.map((r) => r.allowed)).toEqual([true, true, false]);
    expect(results.map((r) => typeof r.lease)).toEqual(["string", "string", "undefined"]);
    const released = await release({ leases: results.slice(0, 2).map((r) => r.lease) });
    expect(released.body).toEqual({ results: [{ released: true }, { released: true }] });
  });

  it("the Express middleware releases when the handler throws and when the client disconnects", async () => {
    const client = createClient({ url: APP_URL, token: BOOTSTRAP, timeoutMs: 5_000 });
    const app = express();
    const guard = sluiceExpress({ client, tenant: undefined, apiKeyHeader: "x-api-key" });
    let hanging = 0;
    app.get("/throws", guard, () => {
      throw new Error("handler failed");
    });
    app.get("/hangs", guard, () => {
      hanging++; // never answers: only the client's going away ends it
    });
    app.get("/ok", guard, (_req, res) => {
      res.json({ ok: true });
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", resolve));
    servers.push(server);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const headers = { "x-api-key": apiKey };

    // one request at a time, each after the last one's lease is back: the middleware releases
    // once the response is sent, without holding it, so a next request can come first
    for (let i = 0; i < 3; i++) {
      expect((await fetch(`${url}/ok`, { headers })).status).toBe(200);
      await waitFor(idle, "the answered request's lease released");
    }
    for (let i = 0; i < 3; i++) {
      expect((await fetch(`${url}/throws`, { headers })).status).toBe(500);
      await waitFor(idle, "the failed request's lease released");
    }

    const aborts = [new AbortController(), new AbortController()];
    const pending = aborts.map((abort) =>
      fetch(`${url}/hangs`, { headers, signal: abort.signal }).catch(() => "aborted"),
    );
    await waitFor(() => hanging === 2, "both requests in their handler");
    expect(await free()).toBe(false);
    for (const abort of aborts) abort.abort();
    expect(await Promise.all(pending)).toEqual(["aborted", "aborted"]);
    await waitFor(idle, "the abandoned requests' leases released");
  });
});
