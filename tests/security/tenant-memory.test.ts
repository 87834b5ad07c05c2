// Each tenant's Redis memory (so no tenant fills Redis unseen), estimated by a bounded pass (SCAN + sampled
// MEMORY USAGE) against real Redis (REDIS_URL, or REDIS_CLUSTER_NODES), published by the
// lease holder and exported as a per-tenant gauge. Keys live under a prefix of this run.
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";

import { scanTenantMemory } from "@/lib/usage/record/tenant-memory-scan";
import {
  memoryMetricsText,
  publishMemory,
  readMemory,
  startMemoryJob,
} from "@/lib/usage/record/tenant-memory";

import { connect, masters } from "../integration/limiter/redis";

const redis = connect();
const prefix = `secmem${randomBytes(3).toString("hex")}:`;

afterAll(async () => {
  for (const node of masters(redis)) {
    const keys = await node.keys(`${prefix}*`);
    for (const key of keys) await node.del(key);
  }
  await redis.quit();
});

/** A sliding log's sorted set of `entries` members for the tenant, under our prefix. */
async function fillLog(tenant: string, entries: number): Promise<void> {
  const key = `${prefix}{t:${tenant}}:log:t:l`;
  const members: (string | number)[] = [];
  for (let i = 0; i < entries; i++) members.push(1_790_000_000_000 + i, `d${i + 1}:1`);
  await redis.zadd(key, ...members);
  await redis.pexpire(key, 600_000);
}

async function exactBytes(tenant: string): Promise<number> {
  let total = 0;
  for (const node of masters(redis)) {
    for (const key of await node.keys(`${prefix}{[tu]:${tenant}}*`)) {
      total += Number(await node.call("MEMORY", "USAGE", key));
    }
  }
  return total;
}

describe("per-tenant Redis memory", () => {
  it("estimates each tenant's bytes from a sample, close to the exact sum", async () => {
    const big = "big";
    const small = "small";
    await fillLog(big, 400);
    await fillLog(small, 1);
    for (let i = 0; i < 50; i++)
      await redis.set(`${prefix}{t:${big}}:o:s.${i}`, "x".repeat(40), "PX", 600_000);
    await redis.set(`${prefix}{u:${small}}:s:1`, "y".repeat(40), "PX", 600_000);

    const figures = await scanTenantMemory(redis, { prefix, maxKeys: 1_000_000, samplesPerTenant: 64 });
    const bigFig = figures.get(big);
    const smallFig = figures.get(small);
    expect(bigFig).toMatchObject({ keys: 51, complete: true });
    expect(smallFig).toMatchObject({ keys: 2, complete: true });
    // every key sampled here (fewer keys than samples): the estimate is the exact sum
    expect(bigFig?.bytes).toBe(await exactBytes(big));
    expect(bigFig!.bytes).toBeGreaterThan(5 * smallFig!.bytes);
  });

  it("examines at most maxKeys keys per pass and says the figures are incomplete", async () => {
    const many = "many";
    const pipeline = redis.pipeline();
    for (let i = 0; i < 3000; i++) pipeline.set(`${prefix}{t:${many}}:o:k.${i}`, "z", "PX", 600_000);
    await pipeline.exec();
    const bounded = await scanTenantMemory(redis, { prefix, maxKeys: 1_000, samplesPerTenant: 8 });
    const figure = bounded.get(many);
    expect(figure?.complete).toBe(false);
    expect(figure!.keys).toBeLessThanOrEqual(1_000 + 1_000);
    const full = await scanTenantMemory(redis, { prefix, maxKeys: 1_000_000, samplesPerTenant: 8 });
    expect(full.get(many)).toMatchObject({ keys: 3000, complete: true });
    expect(full.get(many)!.bytes).toBeGreaterThan(3000 * 10);
  });

  it("publishes the figures, and the gauge names tenants by slug", async () => {
    const figures = await scanTenantMemory(redis, { prefix, maxKeys: 1_000_000, samplesPerTenant: 8 });
    await publishMemory(redis, prefix, figures, 1_790_000_000_000);
    const read = await readMemory(redis, prefix);
    expect(read.get("big")).toEqual({ ...figures.get("big"), measuredAt: 1_790_000_000_000 });
    const text = memoryMetricsText(read, { big: "acme", small: "globex" });
    expect(text).toContain("# TYPE sluice_tenant_redis_bytes gauge");
    expect(text).toContain(`sluice_tenant_redis_bytes{tenant="acme"} ${figures.get("big")!.bytes}`);
    expect(text).toContain(`sluice_tenant_redis_bytes{tenant="globex"} ${figures.get("small")!.bytes}`);
    expect(text).not.toContain("many"); // ids the config does not know are left out
  });

  it("runs on the lease holder only, off the check path", async () => {
    await redis.del(`${prefix}{m:tenant-memory}:result`);
    const jobs = [1, 2].map(() =>
      startMemoryJob({ client: redis, prefix, slugById: () => ({ big: "acme" }), everyMs: 60_000 }),
    );
    let read = await readMemory(redis, prefix);
    for (let i = 0; i < 100 && read.size === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      read = await readMemory(redis, prefix);
    }
    expect(read.get("many")?.keys).toBe(3000);
    const lease = await redis.get(`${prefix}{m:tenant-memory}:lease`);
    expect(lease).toMatch(/\|\d+$/);
    await Promise.all(jobs.map((job) => job.stop()));
  });
});
