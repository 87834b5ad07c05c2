import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceToken } from "@/lib/control/data/tokens";
import { closeDb, db } from "@/lib/control/data/db";
import { closeRedis } from "@/lib/shared/redis/redis";
import { lastUsedKey } from "@/lib/usage/keys";
import { moveLastUsed } from "@/lib/usage/store/last-used-job";
import { connect, createTenant, NS, SYSTEM, type TestTenant } from "./setup";

// "Last used" of API keys and service tokens: noted in memory where checks are answered,
// flushed to Redis with the usage, moved to PostgreSQL beside the rollup. First the move on
// its own (real Redis and PostgreSQL), then end to end through the running app's /api/check.

const APP = process.env.APP_URL;
const client = connect();
let tenant: TestTenant;
let token: { id: string; token: string };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  tenant = await createTenant("used", ["a", "b"]);
  token = await createServiceToken(SYSTEM, { name: `${tenant.slug}-svc`, tenants: [tenant.slug] });
});

afterAll(async () => {
  client.disconnect();
  await closeRedis();
  await closeDb();
});

const lastUsed = async (keyName: string) =>
  (await db().apiKey.findUniqueOrThrow({ where: { id: tenant.keys[keyName] } })).lastUsedAt?.getTime() ??
  null;

describe("last used", () => {
  it("moves noted uses to PostgreSQL once, never back in time, ignoring unknown ids", async () => {
    const t1 = Date.UTC(2026, 0, 1, 12, 0, 0);
    await client.hset(lastUsedKey(NS), {
      [`k:${tenant.keys.b}`]: String(t1),
      "k:no-such-key": String(t1),
      "x:junk": "1",
    });
    expect(await moveLastUsed(client, NS)).toBe(1);
    expect(await lastUsed("b")).toBe(t1);
    expect(await client.exists(lastUsedKey(NS))).toBe(0);
    // an older time arriving late does not rewind it
    await client.hset(lastUsedKey(NS), { [`k:${tenant.keys.b}`]: String(t1 - 60_000) });
    expect(await moveLastUsed(client, NS)).toBe(0);
    expect(await lastUsed("b")).toBe(t1);
    expect(await moveLastUsed(client, NS)).toBe(0);
  });

  it.skipIf(!APP)(
    "records checks with an API key and a service token, within seconds",
    { timeout: 60_000 },
    async () => {
      expect(await lastUsed("a")).toBeNull();
      const check = () =>
        fetch(`${APP}/api/check`, {
          method: "POST",
          headers: { authorization: `Bearer ${token.token}`, "content-type": "application/json" },
          body: JSON.stringify({ tenant: tenant.slug, key: "a", route: "GET /v1/anything" }),
        });
      // the app picks the new token and key up with the next published config
      const before = Date.now();
      for (let i = 0; i < 100 && (await check()).status !== 200; i++) await sleep(200);
      for (let i = 0; i < 20; i++) expect((await check()).status).toBe(200);
      let keyAt: number | null = null;
      let tokenAt: number | null = null;
      for (let i = 0; i < 60 && (keyAt === null || tokenAt === null); i++) {
        await sleep(500);
        keyAt = await lastUsed("a");
        tokenAt =
          (await db().serviceToken.findUniqueOrThrow({ where: { id: token.id } })).lastUsedAt?.getTime() ??
          null;
      }
      expect(keyAt).toBeGreaterThanOrEqual(before - 1_000);
      expect(tokenAt).toBeGreaterThanOrEqual(before - 1_000);
      expect(keyAt).toBeLessThanOrEqual(Date.now());
    },
  );
});
