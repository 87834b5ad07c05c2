import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";

// HAProxy (Debian's, installed by scripts/test.sh) running the configuration shipped in
// docs/examples/haproxy.cfg, its bind and server lines pointed at loopback ports.

const TEMPLATE = fileURLToPath(new URL("../../docs/examples/haproxy.cfg", import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The shipped file with its listening port and servers replaced; everything else as shipped. */
export function haproxyConfig(port: number, servers: readonly number[], socket: string): string {
  const lines = readFileSync(TEMPLATE, "utf8").split("\n");
  const out: string[] = [];
  let serversWritten = false;
  for (const line of lines) {
    if (/^\s+bind /.test(line)) out.push(`    bind 127.0.0.1:${port}`);
    else if (/^\s+stats socket /.test(line)) out.push(line.replace(/socket \S+/, `socket ${socket}`));
    else if (/^\s+server /.test(line)) {
      if (!serversWritten)
        servers.forEach((p, i) => out.push(`    server sluice${i + 1} 127.0.0.1:${p} check`));
      serversWritten = true;
    } else out.push(line);
  }
  if (!serversWritten) throw new Error("docs/examples/haproxy.cfg has no server line");
  return out.join("\n");
}

export class HaProxy {
  private child: ChildProcess | null = null;
  private readonly dir = mkdtempSync(join(tmpdir(), "sluice-haproxy-"));
  log = "";

  constructor(
    readonly port: number,
    private readonly servers: readonly number[],
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  private get socket(): string {
    return join(this.dir, "admin.sock");
  }

  /** HAProxy's view of each server of the backend: name -> status (UP, DOWN, ...). */
  async serverStates(): Promise<Record<string, string>> {
    const csv = await new Promise<string>((resolve, reject) => {
      let text = "";
      const client = connect(this.socket, () => client.end("show stat\n"));
      client.on("data", (chunk: Buffer) => (text += chunk.toString()));
      client.on("end", () => resolve(text));
      client.on("error", reject);
    });
    const states: Record<string, string> = {};
    for (const line of csv.split("\n")) {
      const [backend, server, ...fields] = line.split(",");
      if (backend === "sluice" && server?.startsWith("sluice")) states[server] = fields[15] ?? "";
    }
    return states;
  }

  /** Waits until HAProxy's health checks see server `name` (sluice1, sluice2) UP. */
  async waitUp(name: string, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if ((await this.serverStates())[name]?.startsWith("UP")) return;
      await sleep(100);
    }
    throw new Error(
      `haproxy did not see ${name} up within ${timeoutMs} ms: ${JSON.stringify(await this.serverStates())}`,
    );
  }

  /** Starts HAProxy and waits until it routes a request to an instance. */
  async start(): Promise<void> {
    const file = join(this.dir, "haproxy.cfg");
    writeFileSync(file, haproxyConfig(this.port, this.servers, this.socket));
    this.child = spawn("haproxy", ["-db", "-f", file], { stdio: ["ignore", "pipe", "pipe"] });
    const append = (chunk: Buffer) => (this.log = (this.log + chunk.toString()).slice(-10_000));
    this.child.stdout?.on("data", append);
    this.child.stderr?.on("data", append);
    // until it routes (its health checks must first see an instance up): a minute at most,
    // as a loaded machine once took past the 10 s this waited before
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) break;
      const ok = await fetch(`${this.url}/api/metrics`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await sleep(100);
    }
    throw new Error(
      `haproxy did not route a request within 60 s (exit ${this.child.exitCode}):\n${this.log}`,
    );
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
