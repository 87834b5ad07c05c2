import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

// A PostgreSQL cluster of the test's own (initdb into a temp dir, as the postgres user:
// PostgreSQL refuses root; fsync off, it is thrown away), to stop and start under a running
// app. Never the system PostgreSQL or anyone else's.

const run = promisify(execFile);

async function bindir(): Promise<string> {
  const { stdout } = await run("bash", ["-c", "ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1"]);
  return stdout.trim();
}

export class ThrowawayPostgres {
  readonly root = mkdtempSync(join(tmpdir(), "sluice-pg-"));
  readonly dir = join(this.root, "data");

  constructor(readonly port: number) {
    chmodSync(this.root, 0o777); // initdb, as postgres, creates the data directory here
  }

  url(database: string): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/${database}`;
  }

  private async asPostgres(tool: string, args: string[]): Promise<void> {
    const command = join(await bindir(), tool);
    const asRoot = process.getuid?.() === 0;
    await run(asRoot ? "runuser" : command, asRoot ? ["-u", "postgres", "--", command, ...args] : args);
  }

  async init(): Promise<void> {
    await this.asPostgres("initdb", ["-D", this.dir, "-U", "postgres", "--auth=trust", "-E", "UTF8"]);
  }

  async start(): Promise<void> {
    const options = `-p ${this.port} -k ${this.root} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off`;
    await this.asPostgres("pg_ctl", [
      "-D",
      this.dir,
      "-l",
      join(this.root, "server.log"),
      "-w",
      "-t",
      "30",
      "-o",
      options,
      "start",
    ]);
  }

  async stop(): Promise<void> {
    await this.asPostgres("pg_ctl", ["-D", this.dir, "-m", "fast", "-w", "stop"]);
  }

  async createDatabase(name: string): Promise<void> {
    await this.asPostgres("createdb", ["-h", "127.0.0.1", "-p", String(this.port), "-U", "postgres", name]);
  }

  async remove(): Promise<void> {
    await this.stop().catch(() => undefined);
    rmSync(this.root, { recursive: true, force: true });
  }
}
