import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { redisServerArgs } from "../integration/limiter/throwaway-redis";
import { RedisNode, waitFor } from "./topology";

// A Redis Cluster of three primaries and three replicas on base..base+5 (their cluster bus
// on base+9..base+14: the default, port ± 10000, may fall in the range the system hands out
// as clients' ephemeral ports, and such a port is then taken now and then), with a short
// node timeout (1.5 s) so a crashed primary's replica takes over within a few seconds.

const run = promisify(execFile);
const BUS_OFFSET = 9;

export class ClusterGroup {
  readonly dir = mkdtempSync(join(tmpdir(), "sluice-cluster-"));
  readonly nodes: RedisNode[];

  constructor(readonly base: number) {
    this.nodes = [0, 1, 2, 3, 4, 5].map((offset) => {
      const port = base + offset;
      const dir = join(this.dir, String(port));
      mkdirSync(dir);
      return new RedisNode(port, [
        ...redisServerArgs(port, dir),
        "--cluster-enabled",
        "yes",
        "--cluster-port",
        String(port + BUS_OFFSET),
        "--cluster-config-file",
        join(dir, "nodes.conf"),
        "--cluster-node-timeout",
        "1500",
      ]);
    });
  }

  get seedList(): string {
    return this.nodes
      .slice(0, 3)
      .map((node) => `127.0.0.1:${node.port}`)
      .join(",");
  }

  async start(): Promise<void> {
    for (const node of this.nodes) await node.start();
    await run("redis-cli", [
      "--cluster",
      "create",
      ...this.nodes.map((n) => `127.0.0.1:${n.port}`),
      "--cluster-replicas",
      "1",
      "--cluster-yes",
    ]);
    await waitFor(async () => {
      for (const node of this.nodes)
        if (!(await this.call(node, "CLUSTER", "INFO")).includes("cluster_state:ok")) return false;
      const lines = (await this.call(this.nodes[0] as RedisNode, "CLUSTER", "NODES")).split("\n");
      return lines.filter((line) => line.includes(" slave ") && line.includes(" connected")).length === 3;
    }, "the cluster to be ok with three replicas");
    // replicas in sync, so a crash loses at most what was written since
    await waitFor(async () => {
      for (const node of this.nodes) {
        const text = await this.call(node, "INFO", "replication");
        if (text.includes("role:slave") && !text.includes("master_link_status:up")) return false;
      }
      return true;
    }, "the replicas to sync");
  }

  /** The node that is primary of the slot of this key now, as `asked` (a node) sees it. */
  async primaryOf(key: string, asked = this.nodes[0] as RedisNode): Promise<RedisNode | null> {
    const first = asked;
    const slot = Number(await this.call(first, "CLUSTER", "KEYSLOT", key));
    for (const line of (await this.call(first, "CLUSTER", "NODES")).split("\n")) {
      const fields = line.split(" ");
      if (!fields[2]?.includes("master") || fields[7] !== "connected") continue;
      const port = Number(fields[1]?.split(":")[1]?.split("@")[0]);
      const owns = fields.slice(8).some((range) => {
        const [from, to = from] = range.split("-").map(Number);
        return from !== undefined && slot >= from && slot <= (to as number);
      });
      if (owns) return this.nodes.find((node) => node.port === port) as RedisNode;
    }
    return null;
  }

  /** A key matching the pattern, from whichever node holds one. */
  async anyKey(pattern: string): Promise<string | null> {
    for (const node of this.nodes) {
      const client = node.client();
      try {
        const [, keys] = await client.scan("0", "MATCH", pattern, "COUNT", "10000");
        if (keys[0]) return keys[0];
      } catch {
        // a node that is down or loading: ask the next
      } finally {
        client.disconnect();
      }
    }
    return null;
  }

  async call(node: RedisNode, ...args: string[]): Promise<string> {
    const client = node.client();
    try {
      return String(await client.call(args[0] as string, ...args.slice(1)));
    } catch {
      return "";
    } finally {
      client.disconnect();
    }
  }

  async stop(): Promise<void> {
    for (const node of this.nodes) await node.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
