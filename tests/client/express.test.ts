import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, sluiceExpress, type SluiceClient } from "@sluice/client";
import {
  APP_URL,
  BOOTSTRAP,
  clientTenant,
  closeClients,
  closedUrl,
  recording,
  silentServer,
  type ClientTenant,
} from "./setup";

// A real Express 5 app on 127.0.0.1:0 guarded by the middleware, against the running
// Sluice; assertions are what an HTTP client of that app sees.

let tenant: ClientTenant;
const servers: Server[] = [];

async function app(client: SluiceClient, mode: "route" | "app-wide"): Promise<string> {
  const application = express();
  application.set("trust proxy", false);
  const guard = sluiceExpress({ client });
  if (mode === "app-wide")
    application.use(sluiceExpress({ client, route: (req) => `${req.method} /users/:id` }));
  const handlers = mode === "route" ? [guard] : [];
  application.get("/users/:id", ...handlers, (req, res) => {
    res.json({ id: req.params.id });
  });
  application.post("/exports/:format", ...handlers, (_req, res) => {
    res.json({ exported: true });
  });
  const server = application.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  tenant = await clientTenant("cx", ["a", "b", "c", "d", "e"]);
});

afterAll(async () => {
  for (const server of servers) server.close();
  await closeClients();
});

const client = (): SluiceClient => createClient({ url: APP_URL, token: BOOTSTRAP, timeoutMs: 2_000 });

describe("Express middleware", () => {
  it("passes the RateLimit headers through, then answers 429 with Retry-After; the route pattern counts ids together", async () => {
    const recorder = recording(client());
    const base = await app(recorder.client, "route");
    const key = { "x-api-key": tenant.keys.a ?? "" };
    for (const id of ["1", "2", "3"]) {
      const response = await fetch(`${base}/users/${id}`, { headers: key });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ id });
      expect(response.headers.get("ratelimit-policy")).toBe('"user-reads";q=3;w=3600');
      expect(response.headers.get("ratelimit")).toMatch(
        new RegExp(`^"user-reads";r=${3 - Number(id)};t=\\d+$`),
      );
      expect(response.headers.get("retry-after")).toBeNull();
    }
    const denied = await fetch(`${base}/users/4`, { headers: key });
    expect(denied.status).toBe(429);
    expect(Number(denied.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(denied.headers.get("ratelimit")).toMatch(/^"user-reads";r=0;t=\d+$/);
    const body = (await denied.json()) as { error: { code: string; retryAfterMs: number } };
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.retryAfterMs).toBeGreaterThan(0);
    // the framework's pattern and the socket's address were sent, not the raw URL
    expect(new Set(recorder.asked.map((check) => check.route))).toEqual(new Set(["GET /users/:id"]));
    expect(new Set(recorder.asked.map((check) => check.subject))).toEqual(new Set(["127.0.0.1"]));
  });

  it("app-wide with a route function counts the same way", async () => {
    const base = await app(client(), "app-wide");
    const key = { "x-api-key": tenant.keys.b ?? "" };
    const statuses: number[] = [];
    for (const id of ["7", "8", "9", "10"])
      statuses.push((await fetch(`${base}/users/${id}`, { headers: key })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("a missing or unknown API key is refused with 401 and never reaches the handler", async () => {
    const base = await app(client(), "route");
    const none = await fetch(`${base}/users/1`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe("missing_api_key");
    const unknown = await fetch(`${base}/users/1`, { headers: { "x-api-key": "sk_not_a_real_key_000000" } });
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe("unknown_key");
  });

  it("honours waitMs of a delay limit: the third export within the burst waits, then succeeds", async () => {
    const base = await app(client(), "route");
    const key = { "x-api-key": tenant.keys.c ?? "" };
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const response = await fetch(`${base}/exports/csv`, { method: "POST", headers: key });
      expect(response.status).toBe(200);
      times.push(performance.now() - started);
    }
    // gcra 2/s with burst 1: one at once, then each ~500 ms after the previous one's slot
    expect(Math.max(...times.slice(1))).toBeGreaterThanOrEqual(300);
  });

  it("Sluice down, fail open: 200 within the timeout, no RateLimit headers", async () => {
    const base = await app(
      createClient({ url: await closedUrl(), token: BOOTSTRAP, timeoutMs: 300 }),
      "route",
    );
    const started = performance.now();
    const response = await fetch(`${base}/users/1`, { headers: { "x-api-key": tenant.keys.d ?? "" } });
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(response.headers.get("ratelimit")).toBeNull();
  });

  it("Sluice silent, fail closed: 503 with Retry-After after the timeout, not before", async () => {
    const silent = await silentServer();
    try {
      const closed = createClient({
        url: silent.url,
        token: BOOTSTRAP,
        timeoutMs: 300,
        onUnavailable: "closed",
      });
      const base = await app(closed, "route");
      const started = performance.now();
      const response = await fetch(`${base}/users/1`, { headers: { "x-api-key": tenant.keys.e ?? "" } });
      const ms = performance.now() - started;
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("1");
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("sluice_unavailable");
      expect(ms).toBeGreaterThanOrEqual(290);
      expect(ms).toBeLessThan(1_500);
    } finally {
      await silent.close();
    }
  });
});
