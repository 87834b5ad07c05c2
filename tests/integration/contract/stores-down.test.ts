// The contract's 503 answers (and the check's fail-closed decision), on an app process of
// its own whose Redis (a throwaway server, killed) and PostgreSQL (reached through a relay,
// cut) go away: each real answer is validated against /api/openapi.json like the others.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyPlan, APP_URL, BOOTSTRAP, putTenants, uniqueSlug } from "../admin/http";
import { waitForVersion } from "../check/http";
import { AppProcess, freePort, ThrowawayRedis } from "../check/processes";
import { OpenApiValidator, type OpenApiDoc, type RealAnswer } from "./openapi-validator";
import { tcpProxy, type TcpProxy } from "./tcp-proxy";

let validator: OpenApiValidator;
let redis: ThrowawayRedis;
let database: TcpProxy;
let app: AppProcess;
const slug = uniqueSlug("contract-down");

beforeAll(async () => {
  validator = new OpenApiValidator((await (await fetch(`${APP_URL}/api/openapi.json`)).json()) as OpenApiDoc);
  const plan = await anyPlan();
  const imported = await putTenants([
    {
      slug,
      plan,
      limits: [
        {
          name: "strict",
          by: "tenant",
          algorithm: "fixed_window",
          limit: 100,
          window: "1m",
          onStoreFailure: "closed",
        },
      ],
    },
  ]);
  const url = new URL(process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/sluice_test");
  database = await tcpProxy(url.hostname, Number(url.port || 5432));
  url.hostname = "127.0.0.1";
  url.port = String(database.port);
  redis = new ThrowawayRedis(await freePort());
  await redis.start();
  app = new AppProcess(await freePort(), { REDIS_URL: redis.url, DATABASE_URL: url.href });
  await app.start();
  await waitForVersion(imported.configVersion ?? 0, app.url, 20_000);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await redis?.kill();
  await database?.cut();
});

/** Sends the request to the app with its stores down; expects `status` and a conforming answer. */
async function conforms(
  operation: string,
  path: string,
  status: number,
  body?: unknown,
): Promise<RealAnswer> {
  const method = operation.split(" ")[0] ?? "GET";
  const response = await fetch(`${app.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${BOOTSTRAP}`,
      ...(body ? { "content-type": "application/json" } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = { status: response.status, headers: response.headers, text: await response.text() };
  expect(
    { status: answer.status, problems: validator.problems(operation, answer) },
    answer.text.slice(0, 300),
  ).toEqual({
    status,
    problems: [],
  });
  return answer;
}

const code = (answer: RealAnswer): string =>
  (JSON.parse(answer.text) as { error: { code: string } }).error.code;

describe("Redis down", () => {
  it("a check against a fail-closed limit: 200, denied store_unavailable, degraded", async () => {
    await conforms("POST /api/check", "/api/check", 200, { tenant: slug });
    await redis.kill();
    const answer = await conforms("POST /api/check", "/api/check", 200, { tenant: slug });
    expect(JSON.parse(answer.text)).toMatchObject({
      allowed: false,
      reason: "store_unavailable",
      degraded: true,
    });
  });

  it("counters: state and reset answer 503 store_unavailable; health 503", async () => {
    const state = await conforms("GET /api/admin/state", `/api/admin/state?tenant=${slug}`, 503);
    expect(code(state)).toBe("store_unavailable");
    const reset = await conforms("POST /api/admin/reset", "/api/admin/reset", 503, {
      tenant: slug,
      limit: "strict",
    });
    expect(code(reset)).toBe("store_unavailable");
    await conforms("GET /api/health", "/api/health", 503);
  });
});

describe("PostgreSQL down", () => {
  it("admin reads and writes answer 503 database_unavailable, and change nothing", async () => {
    await database.cut();
    const write = await conforms(
      "POST /api/admin/tenants/{slug}/keys",
      `/api/admin/tenants/${slug}/keys`,
      503,
      {
        name: "never-made",
      },
    );
    expect(code(write)).toBe("database_unavailable");
    const read = await conforms("GET /api/admin/tenants/{slug}/keys", `/api/admin/tenants/${slug}/keys`, 503);
    expect(code(read)).toBe("database_unavailable");
    await conforms("GET /api/admin/config", "/api/admin/config", 503);
    await conforms("POST /api/admin/service-tokens", "/api/admin/service-tokens", 503, {
      name: "never-made",
      tenants: [slug],
    });
    await conforms("GET /api/admin/audit", "/api/admin/audit?limit=1", 503);
    // the write never happened: the shared app (its own database connection) sees no key
    const keys = await fetch(`${APP_URL}/api/admin/tenants/${slug}/keys`, {
      headers: { authorization: `Bearer ${BOOTSTRAP}` },
    });
    expect(JSON.stringify(await keys.json())).not.toContain("never-made");
  });
});
