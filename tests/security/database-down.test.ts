import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// With PostgreSQL unreachable, a write answers 503 database_unavailable ("nothing
// was changed"), not 500 internal_error; a dashboard action says the same; /api/health says
// "down" for PostgreSQL and nothing else: no driver text, host or port. In process, against
// a port where nothing answers PostgreSQL (Redis is the test run's own and up).

let closed: Server;
let port = 0;
const BOOTSTRAP = process.env.SLUICE_BOOTSTRAP_TOKEN ?? "test-bootstrap-token-000000000000";

beforeAll(async () => {
  // a port that refuses: bind one, remember it, close it
  closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const address = closed.address();
  port = typeof address === "object" && address ? address.port : 0;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  process.env.DATABASE_URL = `postgresql://postgres@127.0.0.1:${port}/sluice_gone`;
  process.env.SLUICE_BOOTSTRAP_TOKEN = BOOTSTRAP;
});

afterAll(async () => {
  const { closeDb } = await import("@/lib/control/data/db");
  const { closeRedis } = await import("@/lib/shared/redis/redis");
  await Promise.allSettled([closeDb(), closeRedis()]);
});

/** Whether a text gives away where the database is or what the driver said. */
function leaks(text: string): string[] {
  return ["127.0.0.1", String(port), "ECONN", "reach", "postgresql://", "sluice_gone", "Prisma"].filter((s) =>
    text.includes(s),
  );
}

describe("PostgreSQL unreachable", () => {
  it("an admin API write answers 503 database_unavailable, saying nothing was changed", async () => {
    const { POST } = await import("@/app/api/admin/service-tokens/route");
    const response = await POST(
      new Request("http://localhost/api/admin/service-tokens", {
        method: "POST",
        headers: { authorization: `Bearer ${BOOTSTRAP}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "while-down" }),
      }),
      { params: Promise.resolve({}) },
    );
    const text = await response.text();
    expect(response.status).toBe(503);
    expect(JSON.parse(text)).toEqual({
      error: { code: "database_unavailable", message: "The database is unavailable; nothing was changed." },
    });
    expect(leaks(text)).toEqual([]);
  });

  it("a dashboard action's failure says the same, with status 503", async () => {
    const { createServiceToken } = await import("@/lib/control/data/tokens");
    const { failure } = await import("@/app/(dashboard)/_lib/run-action");
    const error = await createServiceToken({ kind: "system", label: "test" }, { name: "while-down" }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).not.toBeNull();
    const result = failure(error);
    expect(result.status).toBe(503);
    expect(result.message).toMatch(/^The database is unavailable; nothing was changed/);
    expect(leaks(result.message)).toEqual([]);
  });

  it("/api/health answers 503, postgres down, in its fixed words only", async () => {
    const { GET } = await import("@/app/api/health/route");
    const response = await GET();
    const text = await response.text();
    expect(response.status).toBe(503);
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["configVersion", "postgres", "redis", "status"]);
    expect(body).toMatchObject({ status: "degraded", postgres: "down", redis: "ok" });
    expect(leaks(text)).toEqual([]);
  });
});
