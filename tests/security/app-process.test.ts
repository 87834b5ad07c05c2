// The two processes behind one port (server.ts, server-app.ts): checks are the front's, so
// they keep being answered while the app process (Next) is dead and restarting; the app
// comes back by itself; stopping the front stops the app too.
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "@/tests/integration/check/processes";
import { waitFor } from "@/tests/wait-for";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BOOTSTRAP = process.env.SLUICE_BOOTSTRAP_TOKEN ?? "test-bootstrap-token-000000000000";
let front: ChildProcess;
let url = "";
let log = "";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function childrenOf(pid: number): number[] {
  try {
    return execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function status(path: string, init: RequestInit = {}): Promise<number> {
  return fetch(`${url}${path}`, init).then(
    (r) => r.status,
    () => 0,
  );
}

/**
 * A check on a connection of its own. fetch would reuse its pooled connection, which the
 * health polls made and the front handed to the app process: that connection dies with the
 * app (docs/deployment.md), and whether the check then went out on it before the client saw
 * it close was a race. A service's connection that starts with a check stays on the front.
 */
function checkStatus(): Promise<number> {
  const body = JSON.stringify({ tenant: "no-such-tenant" });
  const headers = { authorization: `Bearer ${BOOTSTRAP}`, "content-type": "application/json" };
  return new Promise((resolve) => {
    const req = request(`${url}/api/check`, { method: "POST", headers, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", () => resolve(0));
    req.end(body);
  });
}

beforeAll(async () => {
  const port = await freePort();
  url = `http://localhost:${port}`;
  front = spawn(process.execPath, [".next/sluice/server.mjs"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const append = (chunk: Buffer) => (log = (log + chunk.toString()).slice(-20_000));
  front.stdout?.on("data", append);
  front.stderr?.on("data", append);
  for (let i = 0; i < 240 && (await status("/api/health")) !== 200; i++) await sleep(250);
  if ((await status("/api/health")) !== 200) throw new Error(`the app did not start:\n${log}`);
}, 90_000);

afterAll(async () => {
  if (front.exitCode === null) {
    front.kill("SIGKILL");
    await once(front, "exit");
  }
});

describe("the front and the app process", () => {
  it("checks are answered while the app process is dead, and the app comes back", async () => {
    const [app] = childrenOf(front.pid ?? 0);
    expect(app).toBeGreaterThan(0);
    process.kill(app as number, "SIGKILL");
    await waitFor(() => !alive(app as number), "the app process to die", 5_000, 20);
    expect(await checkStatus(), log).toBe(200);
    expect([0, 503]).toContain(await status("/api/health"));
    let back = false;
    for (let i = 0; i < 120 && !back; i++) {
      expect(await checkStatus()).toBe(200);
      back = (await status("/api/health")) === 200;
      if (!back) await sleep(250);
    }
    expect(back).toBe(true);
    expect(childrenOf(front.pid ?? 0)).not.toContain(app);
  }, 60_000);

  it("SIGTERM stops the front and the app process", async () => {
    const apps = childrenOf(front.pid ?? 0);
    expect(apps.length).toBe(1);
    const exited = once(front, "exit");
    front.kill("SIGTERM");
    await exited;
    await waitFor(() => apps.filter(alive).length === 0, "the app process to exit", 5_000, 20);
    expect(apps.filter(alive)).toEqual([]);
  }, 20_000);
});
