// The production entry: one port. Check requests are read and answered on the raw socket by
// the lean front (lib/enforce/http/front), without node:http's or Next's per-request cost;
// a connection carrying anything else is handed to node:http, where /api/check*,
// /api/metrics (lib/enforce/http/lean-router.ts) and then Next.js answer it.
import { createServer } from "node:http";
import next from "next";
import { env } from "@/lib/env";
import { startEnforcement } from "@/lib/enforce/runtime";
import { leanRoute } from "@/lib/enforce/http/lean-router";
import { checkFrontHandler } from "@/lib/enforce/http/front-handler";
import { LeanFront } from "@/lib/enforce/http/front/lean-front";
import { startUsageJobs } from "@/lib/usage/jobs";
import { stampClientAddress } from "@/lib/http/client-address";

const settings = env();
const dev = settings.NODE_ENV !== "production";
const app = next({ dev, hostname: "localhost", port: settings.PORT });
const [enforcement] = await Promise.all([startEnforcement(), app.prepare()]);
const handle = app.getRequestHandler();
// Usage: decisions counted in process, flushed once a second; rollups on the lease holder.
const usage = startUsageJobs({ tenantSlugs: () => enforcement.holder.current.snapshot.tenantSlugById });

const server = createServer((request, response) => {
  if (leanRoute(enforcement, request, response)) return;
  // The client address from the socket (not a client-sent header), for sign-in limits.
  stampClientAddress(request);
  void handle(request, response);
});
server.keepAliveTimeout = 65_000;
const front = new LeanFront(server, checkFrontHandler(enforcement), {
  keepAliveMs: server.keepAliveTimeout,
  headersTimeoutMs: server.headersTimeout,
});
server.on("error", (error) => {
  // Port taken or similar: exit rather than live on without serving.
  console.error(`[sluice] server error: ${error.message}`);
  process.exit(1);
});
// SLUICE_LISTEN_HOST unset: every interface (node's default), as a service's clients need.
server.listen(settings.PORT, settings.SLUICE_LISTEN_HOST, () => {
  console.log(
    `[sluice] listening on http://localhost:${settings.PORT} (${dev ? "development" : "production"})`,
  );
});

function shutdown(): void {
  server.close(() => {
    void Promise.allSettled([usage.stop(), enforcement.close()]).finally(() => process.exit(0));
  });
  server.closeIdleConnections();
  front.closeConnections();
  setTimeout(() => process.exit(0), 3_000).unref();
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
