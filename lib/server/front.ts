import "server-only";
import { createServer } from "node:http";
import { createServer as createNetServer, type Socket } from "node:net";
import { env } from "@/lib/shared/env";
import type { ConfigBackstop } from "@/lib/check/config-holder";
import { startEnforcement } from "@/lib/check/runtime";
import { leanRoute } from "@/lib/check/http/lean-router";
import { checkFrontHandler } from "@/lib/check/http/front-handler";
import { watchLateAnswers } from "@/lib/check/http/check-endpoint";
import { LeanFront } from "@/lib/check/http/front/lean-front";
import { startGrpcFront, type GrpcFront } from "@/lib/check/grpc/grpc-front";
import { startUsageRecording } from "@/lib/usage/record/recording";
import { closeRedis } from "@/lib/shared/redis/redis";
import { USAGE_FLUSHED_BY_MS } from "@/lib/server/shutdown";
import { frontMetrics } from "@/lib/check/http/front/front-metrics";

// One check front: owns (or, as a worker, shares) the port and answers checks; every other
// connection goes to the app process through `handOff`. Checks and metrics the app passes
// back arrive on `internalSocket`. Its own config holder, limiter connections and usage
// recorder: several fronts (workers or servers) work side by side as separate instances.

export interface FrontOptions {
  internalSocket: string;
  handOff: (socket: Socket, unread: Buffer | null) => void;
  /** a worker leaves the "listening" line to its primary */
  announce: boolean;
  /** PostgreSQL behind Redis for the configuration (lib/control/data/config-backstop.ts) */
  backstop: ConfigBackstop;
}

export interface Front {
  /**
   * Graceful stop: no new connection, every check asked is answered, counts flushed, Redis
   * connections closed (PostgreSQL's pool is the caller's: lib/data). Checks the app process
   * passes back are answered until `appGone` resolves (it stops at the same time and may
   * still hold connections with checks on them, as a load balancer's reused ones).
   */
  stop(appGone: Promise<void>): Promise<void>;
}

const KEEP_ALIVE_MS = 65_000;
// Shutting down, within the 4.5 s of lib/server/shutdown.ts: connections answer what they
// were asked within 2 s; checks the app process passes back are answered until it exits or
// 3 s have passed (its own grace); the usage counts are written once the front's own
// connections are done (while the app goes) and last by USAGE_FLUSHED_BY_MS, at least 1 s
// for that last write however long the app took (a worker is killed soon after: killed at
// 4 s, a last write that began at 3 s was cut short under load).
const DRAIN_MS = 2_000;
const APP_GONE_MS = 3_000;
const LAST_FLUSH_MIN_MS = 1_000;

export async function startFront(options: FrontOptions): Promise<Front> {
  const settings = env();
  const enforcement = await startEnforcement(options.backstop);
  watchLateAnswers(enforcement.checkTimeoutMs);
  // Usage: decisions are counted here, where checks are answered; rollups (and the tenants'
  // Redis memory pass) run in the app; this process reads the memory figures for metrics.
  const usage = startUsageRecording({
    tenantSlugs: () => enforcement.holder.current.snapshot.tenantSlugById,
  });

  const internal = createServer((request, response) => {
    frontMetrics.forwarded(request.url);
    if (leanRoute(enforcement, request, response)) return;
    response.writeHead(404).end();
  });
  // The app's forwarder keeps its sockets to this one alive and reuses them. Closing an idle
  // one here (node's default after 5 s) races with a check the app sends on it just then,
  // which the app answers 502; only the app's side closes them (or this front's stop).
  internal.keepAliveTimeout = 0;
  internal.listen(options.internalSocket);

  // No server.maxConnections: past a cap node refuses every new connection, which idle
  // connections alone can then hold off. The lean front admits them instead: a bound per
  // client address, and at its cap the longest quiet idle connection makes room (the app
  // process has its own cap, for the connections handed to it).
  const server = createNetServer();
  const front = new LeanFront(server, checkFrontHandler(enforcement), {
    keepAliveMs: KEEP_ALIVE_MS,
    headersTimeoutMs: settings.SLUICE_REQUEST_TIMEOUT_MS,
    handOff: options.handOff,
    firstByteTimeoutMs: settings.SLUICE_FIRST_BYTE_TIMEOUT_MS,
    maxConnections: settings.SLUICE_MAX_CONNECTIONS,
    maxConnectionsPerAddress: settings.SLUICE_MAX_CONNECTIONS_PER_ADDRESS,
  });
  server.on("error", (error) => {
    // Port taken or similar: exit rather than live on without serving.
    console.error(`[sluice] server error: ${error.message}`);
    process.exit(1);
  });
  // SLUICE_LISTEN_HOST unset: every interface (node's default), as a service's clients need.
  await new Promise<void>((resolve) => server.listen(settings.PORT, settings.SLUICE_LISTEN_HOST, resolve));
  // Envoy's ShouldRateLimit (docs/envoy.md), when SLUICE_GRPC_PORT asks for it; a port taken
  // stops the process as the HTTP port's would.
  let grpc: GrpcFront | null = null;
  if (settings.SLUICE_GRPC_PORT !== undefined) {
    try {
      grpc = await startGrpcFront(enforcement, settings.SLUICE_LISTEN_HOST, settings.SLUICE_GRPC_PORT);
    } catch (error) {
      console.error(`[sluice] gRPC server error: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    }
    if (options.announce) console.log(`[sluice] gRPC ShouldRateLimit on port ${settings.SLUICE_GRPC_PORT}`);
  }
  if (options.announce) {
    const mode = settings.NODE_ENV === "production" ? "production" : "development";
    console.log(`[sluice] listening on http://localhost:${settings.PORT} (${mode})`);
  }

  return {
    async stop(appGone) {
      const started = Date.now();
      server.close();
      await Promise.all([front.drain(DRAIN_MS), grpc?.stop(DRAIN_MS)]);
      // the front's own checks are answered: their counts go now, not after the app's grace
      // (the recorder runs one flush at a time; stop() below waits for this one)
      void usage.flush();
      const left = Math.max(0, APP_GONE_MS - (Date.now() - started));
      await Promise.race([appGone, new Promise((resolve) => setTimeout(resolve, left))]);
      internal.close();
      internal.closeAllConnections();
      // every check is answered: now the last counts are written and the connections closed
      await usage.stop(Math.max(LAST_FLUSH_MIN_MS, USAGE_FLUSHED_BY_MS - (Date.now() - started)));
      await Promise.allSettled([enforcement.close(), closeRedis()]);
    },
  };
}
