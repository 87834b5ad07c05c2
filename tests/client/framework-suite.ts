import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type SluiceClient } from "@sluice/client";
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

// The scenarios every server framework's guard must pass (express.test.ts, fastify.test.ts):
// a real app on 127.0.0.1:0 guarded by it, against the running Sluice; assertions are what
// an HTTP client of that app sees. Each framework only says how to build its app.

export interface Framework {
  name: string;
  /** tenant slug prefix, unique per framework */
  prefix: string;
  /**
   * An app with GET /users/:id (answers { id }) and POST /exports/:format (answers
   * { exported: true }), guarded app-wide or per route; its base URL.
   */
  serve(client: SluiceClient, mode: "app" | "route"): Promise<string>;
  /** closes every app `serve` started */
  closeAll(): Promise<void>;
}

const client = (): SluiceClient => createClient({ url: APP_URL, token: BOOTSTRAP, timeoutMs: 2_000 });
const code = async (response: Response): Promise<string> =>
  ((await response.json()) as { error: { code: string } }).error.code;

export function frameworkSuite(fw: Framework): void {
  let tenant: ClientTenant;
  beforeAll(async () => {
    tenant = await clientTenant(fw.prefix, ["a", "b", "c", "d", "e"]);
  });
  afterAll(async () => {
    await fw.closeAll();
    await closeClients();
  });
  const key = (name: string) => ({ "x-api-key": tenant.keys[name] ?? "" });

  describe(fw.name, () => {
    it("passes the RateLimit headers through, then answers 429 with Retry-After; the route pattern counts ids together", async () => {
      const recorder = recording(client());
      const base = await fw.serve(recorder.client, "app");
      for (const id of ["1", "2", "3"]) {
        const response = await fetch(`${base}/users/${id}`, { headers: key("a") });
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ id });
        expect(response.headers.get("ratelimit-policy")).toBe('"user-reads";q=3;w=3600');
        expect(response.headers.get("ratelimit")).toMatch(
          new RegExp(`^"user-reads";r=${3 - Number(id)};t=\\d+$`),
        );
        expect(response.headers.get("retry-after")).toBeNull();
      }
      const denied = await fetch(`${base}/users/4?x=1`, { headers: key("a") });
      expect(denied.status).toBe(429);
      expect(Number(denied.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(Number(denied.headers.get("retry-after"))).toBeLessThanOrEqual(7200); // sliding window: up to two windows
      expect(denied.headers.get("ratelimit")).toMatch(/^"user-reads";r=0;t=\d+$/);
      const body = (await denied.json()) as { error: { code: string; retryAfterMs: number } };
      expect(body.error.code).toBe("rate_limited");
      expect(body.error.retryAfterMs).toBeGreaterThan(0);
      // the framework's pattern and the socket's address were sent, not the raw URL
      expect(new Set(recorder.asked.map((check) => check.route))).toEqual(new Set(["GET /users/:id"]));
      expect(new Set(recorder.asked.map((check) => check.subject))).toEqual(new Set(["127.0.0.1"]));
    });

    it("guarding one route counts the same way", async () => {
      const base = await fw.serve(client(), "route");
      const statuses: number[] = [];
      for (const id of ["7", "8", "9", "10"])
        statuses.push((await fetch(`${base}/users/${id}`, { headers: key("b") })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    });

    it("a missing or unknown API key is refused with 401 and never reaches the handler", async () => {
      const base = await fw.serve(client(), "route");
      const none = await fetch(`${base}/users/1`);
      expect(none.status).toBe(401);
      expect(await code(none)).toBe("missing_api_key");
      const unknown = await fetch(`${base}/users/1`, {
        headers: { "x-api-key": "sk_not_a_real_key_000000" },
      });
      expect(unknown.status).toBe(401);
      expect(await code(unknown)).toBe("unknown_key");
    });

    it("honours waitMs of a delay limit: the third export within the burst waits, then succeeds", async () => {
      const base = await fw.serve(client(), "route");
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        const response = await fetch(`${base}/exports/csv`, { method: "POST", headers: key("c") });
        expect(response.status).toBe(200);
        times.push(performance.now() - started);
      }
      // gcra 2/s with burst 1: one at once, then each ~500 ms after the previous one's slot
      expect(Math.max(...times.slice(1))).toBeGreaterThanOrEqual(300);
    });

    it("Sluice down, fail open: 200 within the timeout, no RateLimit headers", async () => {
      const down = createClient({ url: await closedUrl(), token: BOOTSTRAP, timeoutMs: 300 });
      const base = await fw.serve(down, "route");
      const started = performance.now();
      const response = await fetch(`${base}/users/1`, { headers: key("d") });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ id: "1" });
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
        const base = await fw.serve(closed, "route");
        const started = performance.now();
        const response = await fetch(`${base}/users/1`, { headers: key("e") });
        const ms = performance.now() - started;
        expect(response.status).toBe(503);
        expect(response.headers.get("retry-after")).toBe("1");
        expect(await code(response)).toBe("sluice_unavailable");
        expect(ms).toBeGreaterThanOrEqual(290);
        expect(ms).toBeLessThan(1_500);
      } finally {
        await silent.close();
      }
    });
  });
}
