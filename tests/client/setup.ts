import { createServer, type AddressInfo, type Server } from "node:net";
import type { CheckRequest, SluiceClient } from "@sluice/client";
import { APP_URL, BOOTSTRAP, decide, sleep, waitForVersion } from "../integration/check/http";
import { FREE_PLAN_OFF, setupTenants, unique } from "../integration/check/setup";

// A tenant of its own per test file (slugs unique per run), with a route limit counted per
// key, a short-retry route for the queue, a delaying route, and a key per scenario, so
// files never share counters.

export { APP_URL, BOOTSTRAP };
export { closeClients } from "../integration/check/setup";

export interface ClientTenant {
  slug: string;
  /** key name -> secret */
  keys: Record<string, string>;
}

export async function clientTenant(prefix: string, keyNames: string[]): Promise<ClientTenant> {
  const slug = unique(prefix);
  const setup = await setupTenants([
    {
      slug,
      plan: "free",
      limits: FREE_PLAN_OFF,
      routes: [
        {
          pattern: "GET /users/:id",
          // sliding_window: no clock-aligned reset to fall between two requests of a test
          limits: [{ name: "user-reads", by: "key", algorithm: "sliding_window", limit: 3, window: "1h" }],
        },
        {
          // the queue's route: one at once, then one per 500 ms (denied callers retry soon)
          pattern: "GET /queued/:id",
          limits: [{ name: "queued", by: "key", algorithm: "gcra", limit: 2, window: "1s", burst: 1 }],
        },
        {
          pattern: "POST /exports/:format",
          limits: [
            {
              name: "exports",
              by: "key",
              algorithm: "gcra",
              limit: 2,
              window: "1s",
              burst: 1,
              action: "delay",
              maxDelay: "2s",
            },
          ],
        },
      ],
      keys: keyNames.map((name) => ({ name, limits: [] })),
    },
  ]);
  await waitForVersion(setup.version);
  await untilRedisAnswers(slug);
  const keys: Record<string, string> = {};
  for (const name of keyNames) keys[name] = setup.keys[`${slug}/${name}`] ?? "";
  return { slug, keys };
}

/** A freshly started app may answer degraded until its Redis client is ready. */
async function untilRedisAnswers(slug: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const decision = await decide({ tenant: slug, dryRun: true });
    if (!decision.degraded) return;
    await sleep(50);
  }
  throw new Error("the app still answers degraded");
}

/** A URL where nothing listens (a port just freed). */
export async function closedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A server that accepts connections and never answers: a Sluice too slow to wait for. */
export async function silentServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<import("node:net").Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The real client, remembering every check the middleware asked (to assert route and subject). */
export function recording(client: SluiceClient): { client: SluiceClient; asked: CheckRequest[] } {
  const asked: CheckRequest[] = [];
  return {
    asked,
    client: {
      ...client,
      check: (check, options) => {
        asked.push(check);
        return client.check(check, options);
      },
    },
  };
}
