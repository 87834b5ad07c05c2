import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { LeanRedis } from "@/lib/check/limiter/lean-redis/lean-redis";
import type { Script } from "@/lib/shared/redis/script-client";
import { createHash } from "node:crypto";
import { clusterNodes, redisUrl, RUN } from "./redis";
import { waitFor } from "../../wait-for";
import { freePort, startRedis } from "./throwaway-redis";

// The check path's own Redis client against real Redis servers: scripts by SHA with the
// text sent again after SCRIPT FLUSH, calls in flight failing at once when the connection
// drops, reconnection by itself, AUTH and SELECT from the URL, the key prefix.

const script = (lua: string): Script => ({ lua, sha: createHash("sha1").update(lua).digest("hex") });
const SET_AND_ECHO = script("redis.call('SET', KEYS[1], ARGV[1]) return { ARGV[1], KEYS[1] }");

const run = (client: LeanRedis, s: Script, keys: string[], args: Array<string | number>): Promise<unknown> =>
  new Promise((resolve, reject) =>
    client.run(s, keys, args, (error, reply) => (error ? reject(error) : resolve(reply))),
  );

function ready(client: LeanRedis): Promise<void> {
  return waitFor(() => client.ready, "the lean client to be ready", 5_000, 10);
}

const control = new Redis(redisUrl(), { protocol: 2 });
afterAll(() => control.quit());

describe.skipIf(clusterNodes() !== null)("the lean Redis client", () => {
  it("runs a script with prefixed keys, and sends its text again after SCRIPT FLUSH", async () => {
    const client = new LeanRedis({ url: redisUrl(), keyPrefix: `${RUN}:` });
    try {
      await ready(client);
      expect(await run(client, SET_AND_ECHO, ["{t:a}:k"], ["v1"])).toEqual(["v1", `${RUN}:{t:a}:k`]);
      await control.script("FLUSH");
      expect(await run(client, SET_AND_ECHO, ["{t:a}:k"], [42])).toEqual(["42", `${RUN}:{t:a}:k`]);
      expect(await control.get(`${RUN}:{t:a}:k`)).toBe("42");
      await expect(run(client, script("return redis.call('NOSUCHCOMMAND')"), [], [])).rejects.toThrow(
        /Unknown Redis command/i,
      );
    } finally {
      client.disconnect();
    }
  });

  it("fails calls in flight at once when the connection drops, refuses calls while down, and reconnects", async () => {
    // a peer that accepts and never answers, then drops the connection
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket)).listen(0, "127.0.0.1");
    await once(silent, "listening");
    const client = new LeanRedis({ url: `redis://127.0.0.1:${(silent.address() as AddressInfo).port}` });
    let connections = 0;
    client.onReady(() => connections++);
    try {
      await ready(client);
      const inFlight = run(client, SET_AND_ECHO, ["{t:b}:k"], ["x"]).then(
        () => "answered",
        (error: Error) => error.message,
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      const started = performance.now();
      for (const socket of sockets) socket.destroy();
      expect(await inFlight).toMatch(/closed/);
      expect(performance.now() - started).toBeLessThan(500);
      expect(client.ready).toBe(false);
      await expect(run(client, SET_AND_ECHO, ["{t:b}:k"], ["x"])).rejects.toThrow(/not connected/);
      await ready(client);
      expect(connections).toBe(2);
    } finally {
      client.disconnect();
      silent.close();
    }
  });

  it("loads its scripts on every connection before it is ready", async () => {
    const own = script(`return '${RUN}'`);
    const client = new LeanRedis({ url: redisUrl(), scripts: [own] });
    try {
      await ready(client);
      expect(await control.script("EXISTS", own.sha)).toEqual([1]);
    } finally {
      client.disconnect();
    }
  });

  it("reconnects to a real Redis whose connection was killed, named as asked", async () => {
    const client = new LeanRedis({ url: redisUrl(), clientName: `${RUN}-lean` });
    let readies = 0;
    client.onReady(() => readies++);
    try {
      await ready(client);
      const first = readies;
      const list = String(await control.client("LIST"));
      const id = /id=(\d+) [^\n]*name=([^ ]+)/g;
      const ours = [...list.matchAll(id)].filter((m) => m[2] === `${RUN}-lean`).map((m) => m[1] as string);
      expect(ours).toHaveLength(1);
      await control.client("KILL", "ID", ours[0] as string);
      await waitFor(() => readies > first && client.ready, "the client to reconnect", 5_000, 10);
      expect(await run(client, SET_AND_ECHO, ["{t:b}:k"], ["y"])).toEqual(["y", "{t:b}:k"]);
    } finally {
      client.disconnect();
    }
  });

  it("authenticates and selects the database the URL names", async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), "sluice-auth-"));
    await startRedis(port, dir, ["--requirepass", "s3cret", "--pidfile", join(dir, "redis.pid")]);
    const client = new LeanRedis({ url: `redis://:s3cret@127.0.0.1:${port}/3` });
    const admin = new Redis({ port, password: "s3cret", db: 3, protocol: 2, maxRetriesPerRequest: 0 });
    try {
      await ready(client);
      await run(client, SET_AND_ECHO, ["{t:c}:k"], ["in-3"]);
      expect(await admin.get("{t:c}:k")).toBe("in-3");
    } finally {
      client.disconnect();
      admin.disconnect();
      spawnSync("redis-cli", ["-p", String(port), "-a", "s3cret", "--no-auth-warning", "shutdown", "nosave"]);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
