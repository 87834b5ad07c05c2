import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script (no types); its exports are checked by these tests
import { isLoopback, ourListeners } from "../../scripts/test/listeners.mjs";
import { waitFor } from "../wait-for";

// Test servers stay private: the servers a test run starts listen on loopback only, and the
// checks `npm test` runs at its end (scripts/test/listeners.mjs) do see a server left behind
// or one listening on every interface.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const LISTENERS = join(ROOT, "scripts/test/listeners.mjs");

interface Listener {
  pid: number;
  local: string;
  cwd: string;
}
const listeners = (roots?: string[]): Listener[] => (ourListeners as (roots?: string[]) => Listener[])(roots);
const loopback = (local: string): boolean => (isLoopback as (l: string) => boolean)(local);

async function freeBase(): Promise<number> {
  // three consecutive ports (and their buses) free on every interface
  for (;;) {
    const base = 40_000 + Math.floor(Math.random() * 15_000);
    const ports = [base, base + 1, base + 2, base + 10_000, base + 10_001, base + 10_002];
    const free = await Promise.all(
      ports.map(
        (port) =>
          new Promise<boolean>((resolve) => {
            const server = createServer()
              .once("error", () => resolve(false))
              .listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
          }),
      ),
    );
    if (free.every(Boolean)) return base;
  }
}

/** A node server working in `cwd` (the checkout, as the apps do), on `host`. */
async function nodeServer(host: string, cwd = ROOT): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ["-e", `require("node:http").createServer().listen(0, ${JSON.stringify(host)}, () => console.log("up"))`],
    { cwd, stdio: ["ignore", "pipe", "ignore"] },
  );
  await new Promise((resolve) => child.stdout?.once("data", resolve));
  return child;
}

const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) child.kill("SIGKILL");
});

describe("the listener checks of npm test", () => {
  it("tell loopback from every interface", () => {
    expect(loopback("127.0.0.1:6379")).toBe(true);
    expect(loopback("[::1]:6379")).toBe(true);
    expect(loopback("[::ffff:127.0.0.1]:6379")).toBe(true);
    expect(loopback("*:3100")).toBe(false);
    expect(loopback("0.0.0.0:6379")).toBe(false);
    expect(loopback("[::]:6379")).toBe(false);
    expect(loopback("10.0.0.5:6379")).toBe(false);
  });

  it("see a server of the checkout listening on every interface", async () => {
    // in a folder of its own, not the checkout: the watcher of this very run must not count it
    const elsewhere = mkdtempSync(join(tmpdir(), "sluice-wide-"));
    const wide = await nodeServer("0.0.0.0", elsewhere);
    started.push(wide);
    const seen = (): Listener[] => listeners([elsewhere]).filter((l) => l.pid === wide.pid);
    await waitFor(() => seen().length > 0, "the server to be seen listening", 5_000, 50);
    expect(listeners().filter((l) => l.pid === wide.pid)).toEqual([]);
    const mine = seen();
    expect(mine.length).toBe(1);
    expect(loopback(mine[0]!.local)).toBe(false);
    wide.kill("SIGKILL");
    rmSync(elsewhere, { recursive: true, force: true });
  });

  it("fail when a server started after the snapshot is still listening, pass once it stopped", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sluice-listeners-"));
    const snapshot = join(dir, "before.json");
    execFileSync(process.execPath, [LISTENERS, "snapshot", snapshot]);
    const left = await nodeServer("127.0.0.1");
    started.push(left);
    await waitFor(
      () => listeners().some((l) => l.pid === left.pid),
      "the server to be seen listening",
      5_000,
      50,
    );
    const during = spawnSync(process.execPath, [LISTENERS, "check-after", snapshot], { encoding: "utf8" });
    expect(during.status).toBe(1);
    expect(during.stderr).toContain(`pid ${left.pid}`);
    left.kill("SIGKILL");
    await new Promise((resolve) => left.once("exit", resolve));
    const after = spawnSync(process.execPath, [LISTENERS, "check-after", snapshot], { encoding: "utf8" });
    expect(after.status, after.stderr).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("scripts/redis-cluster.sh", () => {
  it("listens on 127.0.0.1 only, the cluster bus too, and stop leaves nothing listening", async () => {
    const base = await freeBase();
    const dir = mkdtempSync(join(tmpdir(), "sluice-cluster-test-"));
    const ports = [base, base + 1, base + 2];
    const buses = ports.map((p) => p + 10_000);
    const onPorts = (): string[] =>
      execFileSync("ss", ["-ltnH"], { encoding: "utf8" })
        .split("\n")
        .map((line) => line.trim().split(/\s+/)[3] ?? "")
        .filter((local) => [...ports, ...buses].some((p) => local.endsWith(`:${p}`)));
    try {
      execFileSync("bash", ["scripts/redis-cluster.sh", "start", dir, String(base)], {
        cwd: ROOT,
        stdio: "ignore",
      });
      const locals = onPorts();
      expect(locals.length).toBe(6);
      expect(locals.filter((local) => !loopback(local))).toEqual([]);
    } finally {
      execFileSync("bash", ["scripts/redis-cluster.sh", "stop", dir, String(base)], {
        cwd: ROOT,
        stdio: "ignore",
      });
      rmSync(dir, { recursive: true, force: true });
    }
    expect(onPorts()).toEqual([]);
  }, 60_000);
});
