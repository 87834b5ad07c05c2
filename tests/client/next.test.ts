import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, sluiceProxy, withSluice, type SluiceClient } from "@sluice/client";
import {
  APP_URL,
  BOOTSTRAP,
  clientTenant,
  closeClients,
  closedUrl,
  recording,
  type ClientTenant,
} from "./setup";

// Next.js App Router route handlers and proxy functions are `(request: Request) => Response`:
// they are called here with real Request objects against the running Sluice, for what an
// HTTP client cannot see (the check sent, immutable responses); next-app.test.ts runs
// them in a real Next.js app over HTTP.

let tenant: ClientTenant;

beforeAll(async () => {
  tenant = await clientTenant("cn", ["a", "b", "c", "d"]);
});

afterAll(closeClients);

const client = (): SluiceClient => createClient({ url: APP_URL, token: BOOTSTRAP, timeoutMs: 2_000 });

function get(path: string, key: string | undefined, extra: Record<string, string> = {}): Request {
  return new Request(`http://app.local${path}`, {
    headers: { ...(key ? { "x-api-key": key } : {}), ...extra },
  });
}

describe("Next.js route handler wrapper", () => {
  it("sets RateLimit headers on the handler's response, 429 with Retry-After past the limit", async () => {
    const recorder = recording(client());
    const handler = async (_request: Request, context: { params: Promise<{ id: string }> }) =>
      Response.json({ id: (await context.params).id });
    const GET = withSluice(handler, { client: recorder.client, route: "GET /users/:id" });
    for (const id of ["1", "2", "3"]) {
      const request = get(`/users/${id}`, tenant.keys.a, { "x-forwarded-for": "198.51.100.1, 203.0.113.9" });
      const response = await GET(request, { params: Promise.resolve({ id }) });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ id });
      expect(response.headers.get("ratelimit")).toMatch(
        new RegExp(`^"user-reads";r=${3 - Number(id)};t=\\d+$`),
      );
    }
    const denied = await GET(get("/users/4", tenant.keys.a), { params: Promise.resolve({ id: "4" }) });
    expect(denied.status).toBe(429);
    expect(Number(denied.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(denied.headers.get("retry-after"))).toBeLessThanOrEqual(7200); // a sliding window: up to two windows
    expect(((await denied.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    expect(recorder.asked.map((check) => check.route)).toEqual(Array(4).fill("GET /users/:id"));
    // the nearest proxy's entry of X-Forwarded-For, not the first (which the caller controls)
    expect(recorder.asked[0]?.subject).toBe("203.0.113.9");
  });

  it("keeps working when the handler returns an immutable response", async () => {
    const GET = withSluice(() => Response.redirect("http://app.local/elsewhere", 307), {
      client: client(),
      route: "GET /users/:id",
    });
    const response = await GET(get("/users/9", tenant.keys.d));
    expect(response.status).toBe(307);
    expect(response.headers.get("location")).toBe("http://app.local/elsewhere");
    expect(response.headers.get("ratelimit")).toMatch(/^"user-reads";r=2;t=\d+$/);
  });
});

describe("Next.js proxy", () => {
  const route = (request: Request): string | undefined => {
    const path = new URL(request.url).pathname;
    return path.startsWith("/users/") ? `${request.method} /users/:id` : undefined;
  };

  it("lets admitted requests continue with the headers, answers refusals itself", async () => {
    const proxy = sluiceProxy({ client: client(), route });
    const statuses: number[] = [];
    for (const id of ["1", "2", "3", "4"]) {
      const response = await proxy(get(`/users/${id}`, tenant.keys.b));
      statuses.push(response.status);
      if (response.status === 200) {
        expect(response.headers.get("x-middleware-next")).toBe("1");
        expect(response.headers.get("ratelimit-policy")).toBe('"user-reads";q=3;w=3600');
      } else {
        expect(response.headers.get("x-middleware-next")).toBeNull();
        expect(response.headers.get("retry-after")).not.toBeNull();
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("Sluice down: open continues within the timeout, closed answers 503", async () => {
    const url = await closedUrl();
    const open = sluiceProxy({ client: createClient({ url, token: BOOTSTRAP, timeoutMs: 300 }), route });
    const started = performance.now();
    const admitted = await open(get("/users/1", tenant.keys.c));
    expect(admitted.status).toBe(200);
    expect(admitted.headers.get("x-middleware-next")).toBe("1");
    expect(performance.now() - started).toBeLessThan(1_000);
    const closed = sluiceProxy({
      client: createClient({ url, token: BOOTSTRAP, timeoutMs: 300, onUnavailable: "closed" }),
      route,
    });
    const refused = await closed(get("/users/1", tenant.keys.c));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
  });
});
