import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { chromium, type Browser, type Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppProcess, ThrowawayRedis } from "../integration/check/processes";
import { BOOTSTRAP, check, waitForVersion } from "../integration/check/http";
import { waitFor } from "../wait-for";
import { FREE_PLAN_OFF } from "../integration/check/setup";
import { HA_BASE } from "./topology";
import { bigLimit } from "./failover-traffic";
import { ThrowawayPostgres } from "./throwaway-postgres";

// PostgreSQL stopped under a running app and started again (a cluster of the test's own on
// SLUICE_TEST_HA_PORT + 12, with its own Redis and app): checks go on, exact; a config
// write answers 503 database_unavailable and changes nothing; the dashboard shows a banner
// instead of an error page (real Chromium); and all of it recovers by itself, no restart.

const run = promisify(execFile);
const HOOK = ["--import", "tsx", "--import", "./scripts/server-only-hook.mjs"];
const postgres = new ThrowawayPostgres(HA_BASE + 12);
const redis = new ThrowawayRedis(HA_BASE + 13);
const operator = { email: "admin@sluice.test", password: "test-admin-password" };
let app: AppProcess;
let browser: Browser;

const tenantDoc = (slug: string, limit: number) => ({
  tenants: [
    {
      slug,
      name: slug,
      status: "active",
      plan: "free",
      limits: [...FREE_PLAN_OFF, bigLimit(limit)],
      routes: [],
      keys: [],
    },
  ],
});

async function putConfig(document: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${app.url}/api/admin/config`, {
    method: "PUT",
    headers: { authorization: `Bearer ${BOOTSTRAP}`, "content-type": "application/json" },
    body: JSON.stringify(document),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function exported(): Promise<string> {
  const response = await fetch(`${app.url}/api/admin/config`, {
    headers: { authorization: `Bearer ${BOOTSTRAP}` },
  });
  return response.ok ? response.text() : `status ${response.status}`;
}

beforeAll(async () => {
  await postgres.init();
  await postgres.start();
  await postgres.createDatabase("sluice_down");
  await redis.start();
  const env = {
    ...process.env,
    DATABASE_URL: postgres.url("sluice_down"),
    REDIS_URL: redis.url,
    SLUICE_ADMIN_EMAIL: operator.email,
    SLUICE_ADMIN_PASSWORD: operator.password,
  };
  await run("node", ["--experimental-wasm-modules", "--no-warnings", "scripts/db/migrate.mjs", "apply"], {
    env,
  });
  await run("node", ["--no-deprecation", ...HOOK, "prisma/seed.ts"], { env });
  const port = HA_BASE + 11; // each test of the suite starts and stops its app on this port
  app = new AppProcess(port, {
    DATABASE_URL: env.DATABASE_URL,
    REDIS_URL: redis.url,
    NEXTAUTH_URL: `http://localhost:${port}`,
  });
  await app.start();
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await redis.kill();
  await postgres.remove();
});

async function signIn(): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: app.url })).newPage();
  await page.goto("/login");
  await page.getByLabel("Email").fill(operator.email);
  await page.getByLabel("Password").fill(operator.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByTestId("signed-in-as").waitFor({ timeout: 20_000 });
  return page;
}

describe("PostgreSQL down and back", () => {
  it("keeps checks exact, refuses writes with 503, shows a banner, and recovers by itself", async () => {
    const written = await putConfig(tenantDoc("pg-down", 1_000));
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    await waitForVersion(Number(written.body.configVersion), app.url, 10_000);
    const page = await signIn();
    const before = await exported();

    await postgres.stop();
    // checks: answered from the config in memory and Redis, exact (not degraded), counting on
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await check({ tenant: "pg-down" }, { url: app.url }));
    const decisions = answers.map((answer) => answer.body);
    const seen = JSON.stringify(answers.map(({ status, body }) => ({ status, body })));
    expect(
      decisions.map((d) => [d.allowed, d.degraded]),
      seen,
    ).toEqual(Array(5).fill([true, false]));
    const remaining = decisions.map((d) => d.limits.find((limit) => limit.name === "big")?.remaining ?? 0);
    expect(remaining).toEqual([0, 1, 2, 3, 4].map((n) => (remaining[0] ?? 0) - n));

    // a config write: 503 with the sentence, and (seen once it is back) nothing changed
    const refused = await putConfig(tenantDoc("pg-down", 5));
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({
      error: { code: "database_unavailable", message: "The database is unavailable; nothing was changed." },
    });

    // the dashboard: the banner, not an error page
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    expect(await page.getByTestId("database-down").textContent()).toContain("The database is unavailable.");
    expect(await page.getByTestId("signed-in-as").count()).toBe(0);

    await postgres.start();
    // recovers by itself: the page (it reloads itself), writes, the same config as before
    await page.getByTestId("signed-in-as").waitFor({ timeout: 20_000 });
    let again = { status: 0, body: {} as Record<string, unknown> };
    await waitFor(
      async () => {
        const text = await exported();
        if (text.startsWith("status")) return false;
        expect(text).toBe(before);
        again = await putConfig(tenantDoc("pg-down", 2_000));
        return again.status === 200;
      },
      "a config write to be taken again",
      20_000,
      250,
    );
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    await waitForVersion(Number(again.body.configVersion), app.url, 10_000);
    const after = (await check({ tenant: "pg-down" }, { url: app.url })).body;
    expect([after.allowed, after.degraded, after.limit]).toEqual([true, false, 2_000]);
  }, 90_000);
});
