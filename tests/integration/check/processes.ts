import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { sideRead } from "./side-read";

// Throwaway Redis servers and app processes for the tests that break Redis: they never
// touch the shared test Redis or the two shared apps. The app uses the shared .next build.

// CHECK_TEST_APP_ROOT: a directory mirroring the repo with its own .next, for running these
// tests while someone else rebuilds the shared one.
const ROOT = process.env.CHECK_TEST_APP_ROOT ?? fileURLToPath(new URL("../../..", import.meta.url));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class ThrowawayRedis {
  private child: ChildProcess | null = null;

  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.child = spawn(
      "redis-server",
      ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      { stdio: "ignore" },
    );
    const client = new Redis(this.url, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on("error", () => undefined); // refused until the server listens: expected
    for (let i = 0; i < 100; i++) {
      try {
        await client.connect();
        await client.ping();
        client.disconnect();
        return;
      } catch {
        client.disconnect();
        await sleep(50);
      }
    }
    throw new Error(`redis-server on ${this.port} did not start`);
  }

  signal(signal: NodeJS.Signals): void {
    this.child?.kill(signal);
  }

  /** SIGKILL, then wait for the port to close. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGCONT");
    child.kill("SIGKILL");
    await exited;
  }

  client(): Redis {
    const client = new Redis(this.url, { maxRetriesPerRequest: 1 });
    client.on("error", () => undefined);
    return client;
  }
}

export class AppProcess {
  private child: ChildProcess | null = null;
  log = "";

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  get url(): string {
    return `http://localhost:${this.port}`;
  }

  /** The server process's id while it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    this.child = spawn(process.execPath, ["--enable-source-maps", ".next/sluice/server.mjs"], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: "production", PORT: String(this.port), ...this.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const append = (chunk: Buffer) => {
      this.log = (this.log + chunk.toString()).slice(-20_000);
    };
    this.child.stdout?.on("data", append);
    this.child.stderr?.on("data", append);
    for (let i = 0; i < 240; i++) {
      if (this.child.exitCode !== null) break;
      // on a connection of its own: a pooled one would go to the app process for good,
      // and the test's checks that later reuse it would all take the app's path
      const ready = await sideRead(`${this.url}/api/metrics`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ready) return;
      await sleep(250);
    }
    throw new Error(`app on ${this.port} did not start:\n${this.log}`);
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }
}
