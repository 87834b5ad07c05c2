import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, sluiceFastify, type SluiceClient } from "@sluice/client";
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

// A real Fastify 5 app on 127.0.0.1:0 with the onRequest hook, against the running Sluice.

let tenant: ClientTenant;
const apps: FastifyInstance[] = [];

async function app(client: SluiceClient, mode: "hook" | "route" = "hook"): Promise<string> {
  const fastify = Fastify();
  const hook = sluiceFastify({ client });
  if (mode === "hook") fastify.addHook("onRequest", hook);
  const routeHook = mode === "route" ? { onRequest: hook } : {};
  fastify.get<{ Params: { id: string } }>("/users/:id", routeHook, async (request) => ({
    id: request.params.id,
  }));
  fastify.post("/exports/:format", routeHook, async () => ({ exported: true }));
  apps.push(fastify);
  return fastify.listen({ port: 0, host: "127.0.0.1" });
}

beforeAll(async () => {
  tenant = await clientTenant("cf", ["a", "b", "c", "d", "e"]);
});

afterAll(async () => {
  for (const fastify of apps) await fastify.close();
  await closeClients();
});

const client = (): SluiceClient => createClient({ url: APP_URL, token: BOOTSTRAP, timeoutMs: 2_000 });

describe("Fastify hook", () => {
  it("passes RateLimit headers through, then 429 with Retry-After; ids count against the route pattern", async () => {
    const recorder = recording(client());
    const base = await app(recorder.client);
    const key = { "x-api-key": tenant.keys.a ?? "" };
    for (const id of ["1", "2", "3"]) {
      const response = await fetch(`${base}/users/${id}`, { headers: key });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ id });
      expect(response.headers.get("ratelimit-policy")).toBe('"user-reads";q=3;w=3600');
      expect(response.headers.get("ratelimit")).toMatch(
        new RegExp(`^"user-reads";r=${3 - Number(id)};t=\\d+$`),
      );
    }
    const denied = await fetch(`${base}/users/4?x=1`, { headers: key });
    expect(denied.status).toBe(429);
    expect(Number(denied.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(denied.headers.get("retry-after"))).toBeLessThanOrEqual(7200); // a sliding window: up to two windows
    expect(((await denied.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    // the framework's pattern and the socket's address were sent, not the raw URL
    expect(new Set(recorder.asked.map((check) => check.route))).toEqual(new Set(["GET /users/:id"]));
    expect(new Set(recorder.asked.map((check) => check.subject))).toEqual(new Set(["127.0.0.1"]));
  });

  it("works as a per-route onRequest hook too", async () => {
    const base = await app(client(), "route");
    const key = { "x-api-key": tenant.keys.b ?? "" };
    const statuses: number[] = [];
    for (const id of ["5", "6", "7", "8"])
      statuses.push((await fetch(`${base}/users/${id}`, { headers: key })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("honours waitMs of a delay limit", async () => {
    const base = await app(client());
    const key = { "x-api-key": tenant.keys.c ?? "" };
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const response = await fetch(`${base}/exports/csv`, { method: "POST", headers: key });
      expect(response.status).toBe(200);
      times.push(performance.now() - started);
    }
    expect(Math.max(...times.slice(1))).toBeGreaterThanOrEqual(300);
  });

  it("Sluice down, fail open: 200 within the timeout", async () => {
    const base = await app(createClient({ url: await closedUrl(), token: BOOTSTRAP, timeoutMs: 300 }));
    const started = performance.now();
    const response = await fetch(`${base}/users/1`, { headers: { "x-api-key": tenant.keys.d ?? "" } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: "1" });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("Sluice silent, fail closed: 503 with Retry-After within the timeout", async () => {
    const silent = await silentServer();
    try {
      const base = await app(
        createClient({ url: silent.url, token: BOOTSTRAP, timeoutMs: 300, onUnavailable: "closed" }),
      );
      const started = performance.now();
      const response = await fetch(`${base}/users/1`, { headers: { "x-api-key": tenant.keys.e ?? "" } });
      const ms = performance.now() - started;
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("1");
      expect(ms).toBeGreaterThanOrEqual(290);
      expect(ms).toBeLessThan(1_500);
    } finally {
      await silent.close();
    }
  });
});
