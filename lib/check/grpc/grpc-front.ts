import "server-only";
import { Server, ServerCredentials } from "@grpc/grpc-js";
import type { Enforcement } from "@/lib/check/runtime";
import { rateLimitService } from "@/lib/check/grpc/proto-files";
import { shouldRateLimit } from "@/lib/check/grpc/rls-handler";

// Envoy's rate limit service on its own port of the check front (SLUICE_GRPC_PORT), answered
// by the same check service, caches, fair gate and usage recorder as /api/check. Plain
// HTTP/2 (h2c): TLS, if wanted, ends at a proxy or a sidecar in front (docs/envoy.md).

export interface GrpcFront {
  /** stop taking calls, answer those in flight for up to `graceMs`, then close */
  stop(graceMs: number): Promise<void>;
}

/** A ShouldRateLimit request is a few descriptors; anything near this is not one. */
const MAX_MESSAGE_BYTES = 256 * 1024;

const IDLE_MS = 5 * 60_000;
/** calls in flight on one connection: past it the client queues them (HTTP/2 flow) */
const MAX_STREAMS = 1_000;

/** "host:port" as grpc-js reads it: IPv6 addresses in brackets; no host, every interface. */
export function grpcAddress(host: string | undefined, port: number): string {
  if (host === undefined) return `[::]:${port}`;
  return host.includes(":") && !host.startsWith("[") ? `[${host}]:${port}` : `${host}:${port}`;
}

export async function startGrpcFront(
  enforcement: Enforcement,
  host: string | undefined,
  port: number,
): Promise<GrpcFront> {
  const server = new Server({
    "grpc.max_receive_message_length": MAX_MESSAGE_BYTES,
    "grpc.max_send_message_length": MAX_MESSAGE_BYTES,
    // a gateway keeps a few connections busy; one left idle this long is closed (it reconnects)
    "grpc.max_connection_idle_ms": IDLE_MS,
    "grpc.max_concurrent_streams": MAX_STREAMS,
    // channelz (grpc-js's introspection service, which Sluice does not serve) tracks every
    // call and stream on by default: work per call on the check path for nobody
    "grpc.enable_channelz": 0,
  });
  server.addService(rateLimitService(), { ShouldRateLimit: shouldRateLimit(enforcement) });
  await new Promise<void>((resolve, reject) => {
    server.bindAsync(grpcAddress(host, port), ServerCredentials.createInsecure(), (error) =>
      error ? reject(error) : resolve(),
    );
  });
  return {
    async stop(graceMs) {
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
    },
  };
}
