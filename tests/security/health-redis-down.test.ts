import { createServer } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";

// No internals leak: /api/health with Redis unreachable says "down" for Redis and nothing more: no
// driver text, host or port (it used to echo "connect ECONNREFUSED 127.0.0.1:<port>").

let port = 0;

beforeAll(async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  port = typeof address === "object" && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  process.env.REDIS_URL = `redis://127.0.0.1:${port}`;
  delete process.env.REDIS_CLUSTER_NODES;
  // Open the PostgreSQL pool first: on a loaded machine its first connection can take longer
  // than the health probe's 1 s, and this test is about Redis being down.
  const { db } = await import("@/lib/control/data/db");
  await db().$queryRaw`select 1`;
});

afterAll(async () => {
  const { closeDb } = await import("@/lib/control/data/db");
  const { closeRedis } = await import("@/lib/shared/redis/redis");
  await Promise.allSettled([closeDb(), closeRedis()]);
});

it("/api/health answers 503 with redis down, in its fixed words only", async () => {
  const { GET } = await import("@/app/api/health/route");
  const response = await GET();
  const text = await response.text();
  expect(response.status).toBe(503);
  expect(JSON.parse(text)).toMatchObject({ status: "degraded", postgres: "ok", redis: "down" });
  for (const leak of ["127.0.0.1", String(port), "ECONN", "redis://", "answer"])
    expect(text).not.toContain(leak);
});
