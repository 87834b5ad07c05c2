// The soak's own stores, never the system ones: a Redis that persists on a planned restart
// (SHUTDOWN SAVE, then loads its dump: what an operator's restart does), and a private
// PostgreSQL cluster under .data/soak-pg on a spare port, run by the postgres user when
// this runs as root (PostgreSQL refuses root). Both can be restarted mid-run.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class SoakRedis {
  private child: ChildProcess | null = null;
  private readonly dir = mkdtempSync(join(tmpdir(), "sluice-soak-redis-"));

  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    const args = [
      "--port",
      String(this.port),
      "--bind",
      "127.0.0.1",
      "--dir",
      this.dir,
      "--save",
      "",
      "--appendonly",
      "no",
    ];
    this.child = spawn("redis-server", args, { stdio: "ignore" });
    const probe = new Redis(this.url, {
      lazyConnect: true,
      retryStrategy: () => null,
      maxRetriesPerRequest: 0,
    });
    probe.on("error", () => undefined);
    for (let i = 0; i < 100; i++) {
      try {
        await probe.connect();
        if ((await probe.ping()) === "PONG") return;
      } catch {
        await sleep(50);
      } finally {
        probe.disconnect();
      }
    }
    throw new Error(`redis-server on ${this.port} did not start`);
  }

  /** SHUTDOWN SAVE (its data kept in a dump), then stopped; `start` loads it again. */
  async stop(save = true): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      execFileSync("redis-cli", ["-p", String(this.port), "shutdown", save ? "save" : "nosave"], {
        stdio: "ignore",
      });
    } catch {
      child.kill("SIGTERM");
    }
    await exited;
  }

  async close(): Promise<void> {
    await this.stop(false);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function pgBin(): string {
  const versions = readdirSync("/usr/lib/postgresql").sort((a, b) => Number(a) - Number(b));
  const last = versions[versions.length - 1];
  if (!last) throw new Error("PostgreSQL binaries not found (apt-get install postgresql)");
  return `/usr/lib/postgresql/${last}/bin`;
}

export class SoakPostgres {
  private readonly bin = pgBin();
  private readonly asRoot = userInfo().uid === 0;

  constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private run(tool: string, args: string[]): void {
    const command = join(this.bin, tool);
    if (this.asRoot) execFileSync("runuser", ["-u", "postgres", "--", command, ...args], { stdio: "ignore" });
    else execFileSync(command, args, { stdio: "ignore" });
  }

  start(): void {
    if (!existsSync(join(this.dir, "PG_VERSION"))) {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      if (this.asRoot) {
        const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }));
        chownSync(this.dir, uid, uid);
      }
      this.run("initdb", ["-D", this.dir, "-U", "postgres", "--auth=trust", "-E", "UTF8"]);
    }
    const options = `-p ${this.port} -k /tmp -c listen_addresses=127.0.0.1 -c max_connections=100`;
    this.run("pg_ctl", [
      "-D",
      this.dir,
      "-l",
      join(this.dir, "server.log"),
      "-w",
      "-t",
      "30",
      "-o",
      options,
      "start",
    ]);
  }

  stop(): void {
    this.run("pg_ctl", ["-D", this.dir, "-m", "fast", "-w", "stop"]);
  }
}
