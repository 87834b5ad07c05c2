import { spawn } from "node:child_process";
import { createServer } from "node:net";

// A Redis server of a test's own (restarts, passwords): a free port, and redis-server
// daemonized there with nothing kept on disk. redisServerArgs is also what the reliability
// suite's topologies (tests/reliability/topology.ts, cluster-topology.ts) start nodes with.

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** redis-server options: loopback only, `port`, files in `dir`, nothing persisted. */
export const redisServerArgs = (port: number, dir: string): string[] => [
  "--port",
  String(port),
  "--bind",
  "127.0.0.1",
  "--save",
  "",
  "--appendonly",
  "no",
  "--dir",
  dir,
];

/** Starts redis-server on `port` with its files in `dir`, daemonized; `extra`: more options. */
export function startRedis(port: number, dir: string, extra: string[] = []): Promise<void> {
  return new Promise((resolve, reject) => {
    const args = [...redisServerArgs(port, dir), "--daemonize", "yes"];
    spawn("redis-server", [...args, ...extra], { stdio: "ignore" }).on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`redis-server exited ${code}`)),
    );
  });
}
