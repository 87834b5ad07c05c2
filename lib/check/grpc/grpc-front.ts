import "server-only";
import { createServer, type Http2Session } from "node:http2";
import type { Enforcement } from "@/lib/check/runtime";
import { shouldRateLimit, type RlsCall } from "@/lib/check/grpc/rls-handler";
import { serveCall } from "@/lib/check/grpc/grpc-call";

// Envoy's rate limit service on its own port of the check front (SLUICE_GRPC_PORT), answered
// by the same check service, caches, fair gate and usage recorder as /api/check. Plain
// HTTP/2 (h2c): TLS, if wanted, ends at a proxy or a sidecar in front (docs/envoy.md).
// Served on node:http2 with a codec of its own (rls-codec.ts) rather than grpc-js: the one
// method is all there is, and grpc-js's per-call machinery cost more than the checks.

export interface GrpcFront {
  /** stop taking calls, answer those in flight for up to `graceMs`, then close */
  stop(graceMs: number): Promise<void>;
}

/** A ShouldRateLimit request is a few descriptors; anything near this is not one. */
const MAX_MESSAGE_BYTES = 256 * 1024;

/** a gateway keeps a few connections busy; one left idle this long is closed (it reconnects) */
const IDLE_MS = 5 * 60_000;
/** calls in flight on one connection: past it the client queues them (HTTP/2 flow) */
const MAX_STREAMS = 1_000;

function ignore(): void {}

export function startGrpcFront(
  enforcement: Enforcement,
  host: string | undefined,
  port: number,
): Promise<GrpcFront> {
  return startGrpcServer(shouldRateLimit(enforcement), host, port);
}

/** The server around any ShouldRateLimit handler (the front's is the check service's). */
export async function startGrpcServer(
  handler: RlsCall,
  host: string | undefined,
  port: number,
): Promise<GrpcFront & { port: number }> {
  const limits = { maxMessageBytes: MAX_MESSAGE_BYTES };
  const sessions = new Set<Http2Session>();
  const server = createServer({
    settings: { maxConcurrentStreams: MAX_STREAMS },
    // grpc-js's own: metadata is not what this server limits, and node's session memory cap
    // (which degrades a busy connection badly when reached, grpc-js found) is left to
    // MAX_STREAMS and the message size limit
    maxSendHeaderBlockLength: Number.MAX_SAFE_INTEGER,
    maxSessionMemory: Number.MAX_SAFE_INTEGER,
  });
  server.on("session", (session: Http2Session) => {
    sessions.add(session);
    session.on("error", ignore);
    session.once("close", () => sessions.delete(session));
    session.setTimeout(IDLE_MS, () => session.close());
  });
  server.on("stream", (stream, headers) => serveCall(stream, headers, handler, limits));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    // no host: every interface, IPv4 and IPv6, as grpc-js's "[::]" did
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.on("error", (error) => console.error(`[sluice] gRPC server error: ${error.message}`));
  const address = server.address();
  return {
    port: typeof address === "object" && address !== null ? address.port : port,
    async stop(graceMs) {
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          for (const session of sessions) session.destroy();
        }, graceMs);
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        // GOAWAY: no new calls on these connections; each closes once its calls are answered
        for (const session of sessions) session.close();
      });
    },
  };
}
