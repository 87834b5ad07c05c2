// The app process, started by the front (server.ts, lib/server/app-process.ts): Next.js
// for the dashboard, the admin API and health, on connections the front passes over with
// the bytes it already read. It holds each connection to its end. Checks and metrics that
// arrive here go back to the front (lib/server/forward.ts). Slow clients get 408 after
// SLUICE_REQUEST_TIMEOUT_MS; connections are admitted as the front admits its own
// (lib/server/app-connections.ts: a bound per client address, and at SLUICE_MAX_CONNECTIONS
// the longest quiet keep-alive connection makes room for a new one).
import { rmSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import { Socket } from "node:net";
import next from "next";
import { z } from "zod";
import { env } from "@/lib/shared/env";
import { startUsageJobs } from "@/lib/usage/store/jobs";
import { startAlertJobs } from "@/lib/control/alerts/jobs";
import { forwarder, frontOwns } from "@/lib/server/forward";
import { AppConnections } from "@/lib/server/app-connections";
import { stampClientAddress } from "@/lib/shared/http/client-address";
import { closeRedis } from "@/lib/shared/redis/redis";
import { closeDatabase } from "@/lib/control/data/close";

const [frontSocket, appSocket] = z.tuple([z.string().min(1), z.string().min(1)]).parse(process.argv.slice(2));
const HandOff = z.object({ kind: z.literal("connection"), unread: z.instanceof(Uint8Array).nullable() });

const settings = env();
const dev = settings.NODE_ENV !== "production";
const app = next({ dev, hostname: "localhost", port: settings.PORT });
await app.prepare();
const handle = app.getRequestHandler();
// one front, or each check worker in turn (SLUICE_WORKERS): a comma-separated list
const forward = forwarder(frontSocket.split(","));
// Usage rollups into PostgreSQL run here, off the check path; the front counts decisions.
const usage = startUsageJobs();
// Near-limit alerts (lib/alerts): evaluated from the recorded usage, webhooks sent from here.
const alerts = startAlertJobs();

const timeout = settings.SLUICE_REQUEST_TIMEOUT_MS;
/** Responses not yet sent: at a stop each becomes its connection's last. */
const underWay = new Set<ServerResponse>();
const connections = new AppConnections({
  maxConnections: settings.SLUICE_MAX_CONNECTIONS,
  maxPerAddress: settings.SLUICE_MAX_CONNECTIONS_PER_ADDRESS,
});
const server = createServer(
  // checked every second, so a deadline is kept within a second
  { requestTimeout: timeout, headersTimeout: timeout, connectionsCheckingInterval: 1_000 },
  (request, response) => {
    // stopping: this answer is the connection's last (Connection: close), so a balancer
    // holding it sends nothing more here that could be cut off by the exit
    if (stopping) response.shouldKeepAlive = false;
    underWay.add(response);
    response.once("close", () => underWay.delete(response));
    connections.requestStarted(request, response);
    if (frontOwns(request.url)) return forward(request, response);
    // The client address from the socket (not a client-sent header), for sign-in limits.
    stampClientAddress(request);
    void handle(request, response);
  },
);
server.keepAliveTimeout = 65_000;
// Listening (on a private socket nobody else uses) is what starts node:http's deadline checks.
// A predecessor killed outright leaves its socket file behind, which would make this one fail.
rmSync(appSocket, { force: true });
server.listen(appSocket);

process.on("message", (message: unknown, socket: unknown) => {
  const parsed = HandOff.safeParse(message);
  if (!parsed.success || !(socket instanceof Socket)) return;
  if (typeof connections.adopt(socket) === "string") return;
  const unread = parsed.data.unread;
  if (unread !== null) socket.unshift(Buffer.from(unread.buffer, unread.byteOffset, unread.byteLength));
  server.emit("connection", socket);
});

// Graceful: requests under way are answered while usage rollups stop and release their
// lease (another server's rollup takes over at once); then the stores are closed.
let stopping = false;

/**
 * Resolves when every connection the front handed over has closed: idle ones are closed
 * now, busy ones once their answer is out (it says Connection: close). server.close()
 * does not wait for them (it counts only connections it accepted itself), and exiting
 * under a forwarded check would drop an answer the front had already counted: the
 * balancer then sends the check again to another server, where it counts a second time.
 */
function handedOverClosed(): Promise<void> {
  for (const response of underWay) if (!response.headersSent) response.shouldKeepAlive = false;
  return new Promise((resolve) => {
    const sweep = setInterval(() => {
      // an answer sent with keep-alive before the stop leaves its connection idle: close it
      server.closeIdleConnections();
      if (connections.open > 0) return;
      clearInterval(sweep);
      resolve();
    }, 20);
    server.closeIdleConnections();
  });
}

function shutdown(): void {
  if (stopping) return;
  stopping = true;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  setTimeout(() => process.exit(0), 2_500).unref();
  void Promise.allSettled([closed, handedOverClosed(), usage.stop(), alerts.stop()])
    .then(() => Promise.allSettled([closeRedis(), closeDatabase()]))
    .finally(() => process.exit(0));
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
// the front is gone (killed): nothing can reach this process any more
process.on("disconnect", () => process.exit(0));
process.send?.({ kind: "ready" });
