import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { evaluate } from "@/lib/check/limiter/evaluate";
import { checkScript } from "@/lib/check/limiter/script";
import { rule, spec } from "../../unit/limiter/rules";
import { connect, masters, RUN } from "./redis";
import { freePort, startRedis } from "./throwaway-redis";

// The script's SHA, and checks that keep working when Redis forgets the script.

const redis = connect();
afterAll(() => redis.quit());

const limits = (tenant: string) => [
  spec(tenant, "key-rps", rule("gcra", 5, 60_000)),
  spec(tenant, "tenant-rpm", rule("sliding_window", 100, 60_000), "t"),
];

async function until(ready: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the check script", () => {
  it("loads, and Redis names it by the SHA the code expects", async () => {
    const [node] = masters(redis);
    const sha = await node!.script("LOAD", checkScript().lua);
    expect(sha).toBe(checkScript().sha);
  });

  it("keeps answering after SCRIPT FLUSH", async () => {
    const tenant = `${RUN}f`;
    expect((await evaluate(redis, limits(tenant), { cost: 1, dryRun: false })).remaining).toBe(4);
    for (const node of masters(redis)) await node.script("FLUSH");
    expect((await evaluate(redis, limits(tenant), { cost: 1, dryRun: false })).remaining).toBe(3);
  });

  it("keeps answering after a Redis restart", async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), "sluice-restart-"));
    await startRedis(port, dir, ["--pidfile", join(dir, "redis.pid")]);
    // hot-path settings as lib/shared/redis/redis.ts: no offline queue, no retries
    const client = new Redis({
      port,
      protocol: 2,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      enableAutoPipelining: true,
      retryStrategy: () => 50,
    });
    client.on("error", () => undefined); // the outage below is the point of the test
    try {
      await until(() => client.status === "ready");
      expect((await evaluate(client, limits("r"), { cost: 1, dryRun: false })).allowed).toBe(true);
      await client.call("SHUTDOWN", "NOSAVE").catch(() => undefined);
      await until(() => client.status !== "ready");
      await startRedis(port, dir, ["--pidfile", join(dir, "redis.pid")]);
      await until(() => client.status === "ready");
      // a fresh server: no script, no state; the first check must not see NOSCRIPT
      const after = await evaluate(client, limits("r"), { cost: 1, dryRun: false });
      expect(after).toMatchObject({ allowed: true, remaining: 4 });
    } finally {
      await client.call("SHUTDOWN", "NOSAVE").catch(() => undefined);
      client.disconnect();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
