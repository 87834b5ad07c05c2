import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, sluiceExpress, sluiceFastify, type DenyOptions } from "@sluice/client";
import { APP_URL, BOOTSTRAP, clientTenant, closeClients, type ClientTenant } from "./setup";

// Every way to answer a denied request (onDenied: 429, 503, drop, queue), in real Express
// and Fastify apps over HTTP against the running Sluice. "GET /users/:id" allows 3 per key
// per hour; "GET /queued/:id" one at once then one per 500 ms.

type Framework = "express" | "fastify";
const FRAMEWORKS: Framework[] = ["express", "fastify"];

let tenant: ClientTenant;
const servers: Server[] = [];
const fastifies: FastifyInstance[] = [];
let nextKey = 0;

const key = (): Record<string, string> => ({ "x-api-key": tenant.keys[`k${nextKey++}`] ?? "" });
const client = () =>
  createClient({ url: APP_URL, token: BOOTSTRAP, timeoutMs: 2_000, localDenyCache: false });

async function app(framework: Framework, options: DenyOptions): Promise<string> {
  if (framework === "express") {
    const application = express();
    const guard = sluiceExpress({ client: client(), ...options });
    application.get("/users/:id", guard, (req, res) => void res.json({ id: req.params.id }));
    application.get("/queued/:id", guard, (req, res) => void res.json({ id: req.params.id }));
    const server = application.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", resolve));
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  const fastify = Fastify();
  fastify.addHook("onRequest", sluiceFastify({ client: client(), ...options }));
  const handler = async (request: { params: { id: string } }) => ({ id: request.params.id });
  fastify.get<{ Params: { id: string } }>("/users/:id", handler);
  fastify.get<{ Params: { id: string } }>("/queued/:id", handler);
  fastifies.push(fastify);
  return fastify.listen({ port: 0, host: "127.0.0.1" });
}

/** Spends the key's 3 reads, then returns what the 4th request sees (or the fetch error). */
async function fourth(base: string, headers: Record<string, string>): Promise<Response | Error> {
  for (let i = 0; i < 3; i++) expect((await fetch(`${base}/users/${i}`, { headers })).status).toBe(200);
  return fetch(`${base}/users/4`, { headers }).catch((error: unknown) => error as Error);
}

beforeAll(async () => {
  tenant = await clientTenant(
    "cd",
    Array.from({ length: 24 }, (_, i) => `k${i}`),
  );
});

afterAll(async () => {
  for (const server of servers) server.close();
  for (const fastify of fastifies) await fastify.close();
  await closeClients();
});

describe.each(FRAMEWORKS)("denied requests in %s", (framework) => {
  it("onDenied 503: 503 with Retry-After and the RateLimit headers", async () => {
    const answer = await fourth(await app(framework, { onDenied: 503 }), key());
    if (answer instanceof Error) throw answer;
    expect(answer.status).toBe(503);
    expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(1);
    expect(answer.headers.get("ratelimit")).toMatch(/^"user-reads";r=0;t=\d+$/);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
  });

  it("onDenied drop: the connection closes with no answer; others are still served", async () => {
    const base = await app(framework, { onDenied: "drop" });
    const answer = await fourth(base, key());
    expect(answer).toBeInstanceOf(Error);
    expect(String((answer as Error & { cause?: unknown }).cause)).toMatch(/socket|closed|terminated/i);
    expect((await fetch(`${base}/users/1`, { headers: key() })).status).toBe(200);
  });

  it("onDenied queue: requests over the limit wait and are served, none refused", async () => {
    const base = await app(framework, { onDenied: "queue" });
    const headers = key();
    const started = performance.now();
    const answers = await Promise.all(
      ["1", "2", "3"].map(async (id) => {
        const response = await fetch(`${base}/queued/${id}`, { headers });
        return { status: response.status, ms: performance.now() - started };
      }),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    // one at once, the others held for the limit's next slots (~500 and ~1000 ms)
    expect(Math.max(...answers.map((answer) => answer.ms))).toBeGreaterThanOrEqual(700);
  });

  it("onDenied queue: a full queue and a wait beyond queue.maxWaitMs are answered 429", async () => {
    const full = await app(framework, { onDenied: "queue", queue: { maxSize: 1 } });
    const headers = key();
    const statuses = await Promise.all(
      ["1", "2", "3"].map(async (id) => (await fetch(`${full}/queued/${id}`, { headers })).status),
    );
    expect(statuses.sort()).toEqual([200, 200, 429]);
    // an hour's retry is longer than the queue waits: 429 at once, not after an hour
    const short = await app(framework, { onDenied: "queue", queue: { maxWaitMs: 1_000 } });
    const started = performance.now();
    const answer = await fourth(short, key());
    if (answer instanceof Error) throw answer;
    expect(answer.status).toBe(429);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe("jitter on Retry-After", () => {
  /** Each denial's Retry-After, with when (s) its request was sent and its answer came. */
  async function denials(jitter: number | undefined) {
    const base = await app("express", jitter === undefined ? {} : { jitter });
    const headers = key();
    const told: { seconds: number; sent: number; received: number }[] = [];
    const first = await fourth(base, headers);
    if (first instanceof Error) throw first;
    for (let i = 0; i < 12; i++) {
      const sent = performance.now() / 1_000;
      const response = await fetch(`${base}/users/9`, { headers });
      const received = performance.now() / 1_000;
      expect(response.status).toBe(429);
      told.push({ seconds: Number(response.headers.get("retry-after")), sent, received });
    }
    return told;
  }
  const retryAfters = async (jitter: number | undefined): Promise<number[]> =>
    (await denials(jitter)).map((d) => d.seconds);

  it("callers denied together are told different times, within +/-10% (the default)", async () => {
    const seconds = await retryAfters(undefined);
    expect(new Set(seconds).size).toBeGreaterThan(1);
    // a sliding window's retry is at most two windows (2 h): +10% of that at most
    for (const value of seconds) expect(value).toBeLessThanOrEqual(Math.ceil(7_200 * 1.1));
    expect(Math.max(...seconds) / Math.min(...seconds)).toBeLessThanOrEqual(1.1 / 0.9 + 0.01);
  });

  it("jitter 0 turns it off: every caller is told the same time (to the second)", async () => {
    // Retry-After counts down as time passes (a loaded machine took 2.5 s for the 12), so
    // compare the moments it names: each answer's seconds from when it was decided, which
    // lies between its request's send and its answer. Without jitter one whole second holds
    // them all: ceil(T - decided) + decided is in [T, T + 1).
    const told = await denials(0);
    const latest = Math.max(...told.map((d) => d.seconds + d.sent));
    const earliest = Math.min(...told.map((d) => d.seconds + d.received));
    expect(latest - earliest).toBeLessThan(1);
  });

  it("a bad option is refused when the middleware is made, naming the field", () => {
    expect(() => sluiceExpress({ client: client(), jitter: 2 })).toThrow(/^jitter:/);
    expect(() => sluiceFastify({ client: client(), onDenied: 418 as 429 })).toThrow(/^onDenied:/);
    expect(() => sluiceExpress({ client: client(), queue: { maxSize: -1 } })).toThrow(/^queue.maxSize:/);
  });
});
