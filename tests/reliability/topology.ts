import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { redisServerArgs } from "../integration/limiter/throwaway-redis";
import { waitFor } from "../wait-for";

// Throwaway Redis topologies on loopback for the failover tests: a primary, a replica and
// three sentinels; a Redis Cluster of three primaries and three replicas. Every server is a
// child of the test (never daemonized), so kill() is a real crash and nothing outlives it.

/**
 * The first of the 20 loopback ports these tests use (SLUICE_TEST_HA_PORT): Sentinel group
 * +0..+4, Redis Cluster +5..+10 (its bus +14..+19), the app under test +11, PostgreSQL +12
 * and its Redis +13 (tests/reliability/postgres-down.test.ts).
 */
export const HA_BASE = Number(process.env.SLUICE_TEST_HA_PORT ?? 63870);

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class RedisNode {
  private child: ChildProcess | null = null;

  constructor(
    readonly port: number,
    private readonly args: string[],
    private readonly binary = "redis-server",
  ) {}

  async start(): Promise<void> {
    this.child = spawn(this.binary, this.args, { stdio: "ignore" });
    const child = this.child;
    for (let i = 0; i < 200; i++) {
      if (child.exitCode !== null)
        throw new Error(`${this.binary} on ${this.port} exited at start (port taken?)`);
      if (await ping(this.port)) return;
      await sleep(50);
    }
    throw new Error(`${this.binary} on ${this.port} did not start`);
  }

  /** SIGKILL: a crash, with whatever the replicas had not received lost. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  client(): Redis {
    const client = new Redis({
      port: this.port,
      host: "127.0.0.1",
      maxRetriesPerRequest: 1,
      lazyConnect: true,
    });
    client.on("error", () => undefined);
    return client;
  }
}

async function ping(port: number): Promise<boolean> {
  const client = new Redis({
    port,
    host: "127.0.0.1",
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on("error", () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

export const SENTINEL_NAME = "sluice-ha";

/** Primary on base, replica on base+1, sentinels on base+2..base+4 (quorum 2, down after 1 s). */
export class SentinelGroup {
  readonly dir = mkdtempSync(join(tmpdir(), "sluice-sentinel-"));
  readonly primary: RedisNode;
  readonly replica: RedisNode;
  readonly sentinels: RedisNode[];

  constructor(readonly base: number) {
    this.primary = new RedisNode(base, redisServerArgs(base, this.dir));
    this.replica = new RedisNode(base + 1, [
      ...redisServerArgs(base + 1, this.dir),
      "--replicaof",
      "127.0.0.1",
      String(base),
    ]);
    this.sentinels = [2, 3, 4].map((offset) => {
      const port = base + offset;
      const file = join(this.dir, `sentinel-${port}.conf`);
      writeFileSync(
        file,
        [
          `port ${port}`,
          "bind 127.0.0.1",
          `dir ${this.dir}`,
          `sentinel monitor ${SENTINEL_NAME} 127.0.0.1 ${base} 2`,
          `sentinel down-after-milliseconds ${SENTINEL_NAME} 1000`,
          `sentinel failover-timeout ${SENTINEL_NAME} 5000`,
          `sentinel parallel-syncs ${SENTINEL_NAME} 1`,
          "",
        ].join("\n"),
      );
      return new RedisNode(port, [file], "redis-sentinel");
    });
  }

  get sentinelList(): string {
    return this.sentinels.map((s) => `127.0.0.1:${s.port}`).join(",");
  }

  async start(): Promise<void> {
    await this.primary.start();
    await this.replica.start();
    await waitFor(
      async () => (await info(this.replica, "replication")).includes("master_link_status:up"),
      "the replica to sync",
    );
    for (const sentinel of this.sentinels) await sentinel.start();
    // every sentinel sees the replica and the other sentinels before the test may kill anything
    await waitFor(async () => {
      for (const sentinel of this.sentinels) {
        const client = sentinel.client();
        const master = (await client.call("SENTINEL", "MASTER", SENTINEL_NAME).catch(() => [])) as string[];
        client.disconnect();
        const field = (name: string) => Number(master[master.indexOf(name) + 1] ?? 0);
        if (field("num-slaves") < 1 || field("num-other-sentinels") < 2) return false;
      }
      return true;
    }, "the sentinels to find each other");
  }

  async stop(): Promise<void> {
    for (const node of [...this.sentinels, this.replica, this.primary]) await node.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export async function info(node: RedisNode, section: string): Promise<string> {
  const client = node.client();
  try {
    return await client.info(section);
  } catch {
    return "";
  } finally {
    client.disconnect();
  }
}

export { waitFor };
