import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, sluiceExpress, sluiceFastify, sluiceProxy, withSluiceFetch } from "@sluice/client";
import { APP_URL, BOOTSTRAP, clientTenant, closeClients, type ClientTenant } from "./setup";
import { decide } from "../integration/check/http";
import { waitFor } from "../wait-for";

// The middleware's costs known after the response, against the running Sluice: failed
// requests refunded (skipFailedRequests: a status >= 400, a throwing handler), the real
// cost charged (costAfter). The route allows 3 reads an hour per key (sliding_window); a
// dry run reports what would remain after it, so a fresh key reads 2.

let tenant: ClientTenant;
const servers: Server[] = [];
const client = createClient({ url: APP_URL, token: BOOTSTRAP, timeoutMs: 5_000 });

beforeAll(async () => {
  tenant = await clientTenant("cadj", ["failing", "throwing", "charged", "fetching"]);
});
afterAll(async () => {
  for (const server of servers) server.close();
  await closeClients();
});

async function remaining(key: string): Promise<number | null | undefined> {
  const d = await decide({ apiKey: tenant.keys[key], route: "GET /users/1", dryRun: true });
  return d.limits.find((l) => l.name === "user-reads")?.remaining;
}

async function serve(): Promise<string> {
  const app = express();
  const guard = sluiceExpress({
    client,
    skipFailedRequests: true,
    costAfter: (res) => Number(res.getHeader?.("x-cost") ?? 1),
  });
  app.get("/users/:id", guard, (req, res, next) => {
    if (req.params.id === "fail") res.status(500).json({ failed: true });
    else if (req.params.id === "throw") next(new Error("handler failed"));
    else res.setHeader("x-cost", req.params.id === "heavy" ? "3" : "1").json({ ok: true });
  });
  app.use((_error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(500).json({ error: "boom" });
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("middleware adjustments", () => {
  it("Express, skipFailedRequests: failed responses and throwing handlers are refunded", async () => {
    const url = await serve();
    for (const [key, id] of [
      ["failing", "fail"],
      ["throwing", "throw"],
    ] as const) {
      for (let i = 0; i < 5; i++) {
        const response = await fetch(`${url}/users/${id}`, {
          headers: { "x-api-key": tenant.keys[key] ?? "" },
        });
        expect(response.status, `${key} request ${i}`).toBe(500);
        await waitFor(async () => (await remaining(key)) === 2, `${key}: request ${i} refunded`);
      }
    }
  });

  it("Express, costAfter: the real cost is charged once the response finished", async () => {
    const url = await serve();
    const headers = { "x-api-key": tenant.keys.charged ?? "" };
    expect((await fetch(`${url}/users/heavy`, { headers })).status).toBe(200);
    await waitFor(async () => (await remaining("charged")) === 0, "the charge of 2 more units");
    expect((await fetch(`${url}/users/1`, { headers })).status).toBe(429);
  });

  it("fetch-style: a throwing handler is refunded, costAfter charges", async () => {
    const key = tenant.keys.fetching ?? "";
    const handler = withSluiceFetch(
      (request: Request) => {
        if (request.url.endsWith("/throw")) throw new Error("handler failed");
        return new Response("ok", { headers: { "x-cost": "2" } });
      },
      {
        client,
        route: "GET /users/:id",
        skipFailedRequests: true,
        costAfter: (res) => Number(res.headers.get("x-cost")),
      },
    );
    const request = (id: string) => new Request(`http://app/users/${id}`, { headers: { "x-api-key": key } });
    await expect(handler(request("throw"))).rejects.toThrow("handler failed");
    await waitFor(async () => (await remaining("fetching")) === 2, "the throwing request refunded");
    expect((await handler(request("1"))).status).toBe(200);
    await waitFor(async () => (await remaining("fetching")) === 0, "cost 1 then a charge of 1");
  });

  it("Fastify's hook and the Next.js proxy refuse the options they cannot honour", () => {
    expect(() => sluiceFastify({ client, skipFailedRequests: true })).toThrow(/skipFailedRequests/);
    expect(() => sluiceProxy({ client, costAfter: () => 1 })).toThrow(/sluiceProxy/);
  });
});
