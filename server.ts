// The production entry, two processes on one port. This one, the front, owns the port and
// answers checks: each connection is read first by the lean front
// (lib/enforce/http/front), which frames and answers POST /api/check and /api/check/batch
// on the raw socket; at a connection's first other request (the dashboard, the admin API,
// health, anything unusual) the socket goes, with the bytes already read, to the app
// process (server-app.ts: Next.js), which keeps it. Nothing the app does (a render, an
// import, a parse, a usage rollup) runs on this process's event loop, so none of it can
// hold up a check. Checks and metrics requests that reach the app on a connection it holds
// come back here over a private socket (lib/server/forward.ts).
import { createServer } from "node:http";
import { createServer as createNetServer } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { env } from "@/lib/env";
import { startEnforcement } from "@/lib/enforce/runtime";
import { leanRoute } from "@/lib/enforce/http/lean-router";
import { checkFrontHandler } from "@/lib/enforce/http/front-handler";
import { LeanFront } from "@/lib/enforce/http/front/lean-front";
import { startUsageJobs } from "@/lib/usage/jobs";
import { AppProcess } from "@/lib/server/app-process";

const settings = env();
const enforcement = await startEnforcement();
// Usage: decisions are counted here, where checks are answered; rollups (and the tenants'
// Redis memory pass) run in the app; this process reads the memory figures for metrics.
const usage = startUsageJobs({
  rollups: false,
  tenantSlugs: () => enforcement.holder.current.snapshot.tenantSlugById,
});

// Private sockets between the two processes, in a directory only this user can enter.
const privateDir = mkdtempSync(join(tmpdir(), "sluice-"));
const frontSocket = join(privateDir, "front.sock");
const appSocket = join(privateDir, "app.sock");

// Checks and metrics passed back by the app process, served by node:http here.
const internal = createServer((request, response) => {
  if (leanRoute(enforcement, request, response)) return;
  response.writeHead(404).end();
});
internal.listen(frontSocket);

const app = new AppProcess(fileURLToPath(new URL("./server-app.mjs", import.meta.url)), [
  frontSocket,
  appSocket,
]);
await app.whenReady();

const KEEP_ALIVE_MS = 65_000;
const server = createNetServer();
// Over the cap, node closes new connections at once (the app process has its own cap).
server.maxConnections = settings.SLUICE_MAX_CONNECTIONS;
const front = new LeanFront(server, checkFrontHandler(enforcement), {
  keepAliveMs: KEEP_ALIVE_MS,
  headersTimeoutMs: settings.SLUICE_REQUEST_TIMEOUT_MS,
  handOff: (socket, unread) => app.handOff(socket, unread),
});
server.on("error", (error) => {
  // Port taken or similar: exit rather than live on without serving.
  console.error(`[sluice] server error: ${error.message}`);
  process.exit(1);
});
// SLUICE_LISTEN_HOST unset: every interface (node's default), as a service's clients need.
server.listen(settings.PORT, settings.SLUICE_LISTEN_HOST, () => {
  const mode = settings.NODE_ENV === "production" ? "production" : "development";
  console.log(`[sluice] listening on http://localhost:${settings.PORT} (${mode})`);
});

let stopping = false;
function shutdown(): void {
  if (stopping) return;
  stopping = true;
  server.close();
  internal.close();
  front.closeConnections();
  setTimeout(() => process.exit(0), 4_000).unref();
  void app
    .stop()
    .then(() => Promise.allSettled([usage.stop(), enforcement.close()]))
    .finally(() => {
      rmSync(privateDir, { recursive: true, force: true });
      process.exit(0);
    });
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
