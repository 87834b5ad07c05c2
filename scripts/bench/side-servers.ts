// The bench's two servers beside Sluice: (a)'s bare node:http answering every request at
// once (the ceiling of the machine's HTTP), and (d)'s peer, rate-limiter-flexible on Redis.
import { freePort, httpReady, startProcess } from "./processes";

const HOOK = ["--import", "tsx", "--import", "./scripts/server-only-hook.mjs"];

export interface SideServer {
  port: number;
  pid: number | undefined;
}

async function start(name: string, script: string, args: string[]): Promise<SideServer> {
  const port = await freePort();
  const child = await startProcess(name, process.execPath, [...HOOK, script, String(port), ...args], {}, () =>
    httpReady(`http://localhost:${port}/`),
  );
  return { port, pid: child.pid };
}

export async function startSideServers(redisUrl: string): Promise<{ bare: SideServer; peer: SideServer }> {
  const bare = await start("bare", "scripts/bench/bare-server.ts", []);
  const peer = await start("peer", "scripts/bench/peer-server.ts", [redisUrl]);
  return { bare, peer };
}
