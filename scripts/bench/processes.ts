// Child processes of the benchmark: a throwaway Redis and the servers under test, each its
// own process so the load generator (this process) and a server use separate cores.
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import { createServer } from "node:net";

const children = new Set<ChildProcess>();

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a process and waits until `ready()` holds (or it exits: then throws with its output). */
export async function startProcess(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  ready: () => Promise<boolean>,
  cwd?: string,
): Promise<ChildProcess> {
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    ...(cwd === undefined ? {} : { cwd }),
  });
  children.add(child);
  let output = "";
  // BENCH_LOG_DIR: every child's output also goes to <dir>/<name>-<pid>.log (GC traces, profiles)
  const log = process.env.BENCH_LOG_DIR
    ? createWriteStream(`${process.env.BENCH_LOG_DIR}/${name}-${child.pid}.log`)
    : null;
  const keep = (chunk: Buffer) => {
    log?.write(chunk);
    output = (output + chunk.toString()).slice(-8_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  child.once("exit", () => children.delete(child));
  for (let i = 0; i < 400; i++) {
    if (child.exitCode !== null) break;
    if (await ready().catch(() => false)) return child;
    await sleep(100);
  }
  throw new Error(`${name} did not start:\n${output}`);
}

export async function httpReady(url: string): Promise<boolean> {
  const response = await fetch(url, { method: "POST", body: "{}" });
  await response.arrayBuffer();
  return response.status > 0;
}

/**
 * SIGTERM first (a server writes its --cpu-prof on a clean exit, which takes it up to 4.5 s:
 * lib/server/shutdown.ts), SIGKILL after 6 s.
 */
export async function stopAll(): Promise<void> {
  await stopProcesses([...children]);
}

export async function stopProcesses(running: ChildProcess[]): Promise<void> {
  const exited = running.map((child) => new Promise((resolve) => child.once("exit", resolve)));
  for (const child of running) child.kill("SIGTERM");
  await Promise.race([Promise.all(exited), sleep(6_000)]);
  for (const child of running)
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const child of running) children.delete(child);
}

/** Interrupted (Ctrl-C, kill): stop what this run started before leaving. */
export function stopAllOnSignals(): void {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      void stopAll().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
    });
  }
}
