import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNextApp, type NextApp } from "./next-app";
import { APP_URL, BOOTSTRAP, clientTenant, closeClients, closedUrl, type ClientTenant } from "./setup";

// A real Next.js 16 app (tests/fixtures/next-app: App Router route handlers wrapped with
// withSluice, and a proxy.ts made with sluiceProxy), built and started by this file, against
// the running Sluice; assertions are what an HTTP client of that app sees.

let tenant: ClientTenant;
let next: NextApp;
let nextKey = 0;

const key = (): Record<string, string> => ({ "x-api-key": tenant.keys[`k${nextKey++}`] ?? "" });

beforeAll(async () => {
  tenant = await clientTenant(
    "cj",
    Array.from({ length: 12 }, (_, i) => `k${i}`),
  );
  next = await startNextApp({ sluiceUrl: APP_URL, token: BOOTSTRAP, downUrl: await closedUrl() });
}, 300_000);

afterAll(async () => {
  await next?.stop();
  await closeClients();
});

/** Spends the key's 3 reads of "GET /users/:id" through `path(i)`, then the 4th request. */
async function fourth(
  path: (id: number) => string,
  headers: Record<string, string>,
): Promise<Response | Error> {
  for (let i = 0; i < 3; i++) {
    const response = await fetch(`${next.url}${path(i)}`, { headers });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: String(i) });
    expect(response.headers.get("ratelimit")).toMatch(new RegExp(`^"user-reads";r=${2 - i};t=\\d+$`));
  }
  return fetch(`${next.url}${path(4)}`, { headers }).catch((error: unknown) => error as Error);
}

describe("Next.js route handler (withSluice)", () => {
  it("serves with the RateLimit headers, then 429 with Retry-After; ids count together", async () => {
    const denied = await fourth((id) => `/users/${id}`, key());
    if (denied instanceof Error) throw denied;
    expect(denied.status).toBe(429);
    expect(Number(denied.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(denied.headers.get("ratelimit-policy")).toBe('"user-reads";q=3;w=3600');
    expect(((await denied.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
  });

  it("a missing API key is refused with 401 and never reaches the handler", async () => {
    const response = await fetch(`${next.url}/users/1`);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("missing_api_key");
  });

  it("Sluice down: fail open serves within the timeout, fail closed answers 503", async () => {
    const started = performance.now();
    const open = await fetch(`${next.url}/answers/down-open/users/1`, { headers: key() });
    expect(open.status).toBe(200);
    expect(await open.json()).toEqual({ id: "1" });
    expect(open.headers.get("ratelimit")).toBeNull();
    expect(performance.now() - started).toBeLessThan(1_500);
    const closed = await fetch(`${next.url}/answers/down-closed/users/1`, { headers: key() });
    expect(closed.status).toBe(503);
    expect(closed.headers.get("retry-after")).toBe("1");
    expect(((await closed.json()) as { error: { code: string } }).error.code).toBe("sluice_unavailable");
  });
});

describe("Next.js proxy (sluiceProxy)", () => {
  it("admits with the headers on the handler's answer, refuses past the limit itself", async () => {
    const denied = await fourth((id) => `/proxied/users/${id}`, key());
    if (denied instanceof Error) throw denied;
    expect(denied.status).toBe(429);
    expect(Number(denied.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = (await denied.json()) as { error: { code: string }; proxied?: boolean };
    expect(body.error.code).toBe("rate_limited");
    expect(body.proxied).toBeUndefined();
  });
});

describe("Next.js: every way to answer a denied request", () => {
  it("onDenied 503", async () => {
    const denied = await fourth((id) => `/answers/503/users/${id}`, key());
    if (denied instanceof Error) throw denied;
    expect(denied.status).toBe(503);
    expect(Number(denied.headers.get("retry-after"))).toBeGreaterThan(1);
  });

  it("onDenied drop: the client gets no complete answer", async () => {
    const denied = await fourth((id) => `/answers/drop/users/${id}`, key());
    // Next cannot close the socket for a route handler: the body fails before its first
    // byte, so the connection ends with no status or an unreadable body, never a JSON answer
    const read =
      denied instanceof Error ? denied : await denied.text().catch((error: unknown) => error as Error);
    expect(read).toBeInstanceOf(Error);
  });

  it("onDenied queue: over-limit requests wait and are served; a full queue answers 429", async () => {
    const headers = key();
    const statuses = await Promise.all(
      ["1", "2", "3"].map(
        async (id) => (await fetch(`${next.url}/answers/queue/users/${id}`, { headers })).status,
      ),
    );
    expect(statuses).toEqual([200, 200, 200]);
    const one = key();
    const limited = await Promise.all(
      ["1", "2", "3"].map(
        async (id) => (await fetch(`${next.url}/answers/queue-one/users/${id}`, { headers: one })).status,
      ),
    );
    expect(limited.sort()).toEqual([200, 200, 429]);
  });
});
