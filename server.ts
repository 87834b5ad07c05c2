// The production entry: one port. Next.js serves the dashboard and admin API; the lean
// enforcement path (/api/check*) is mounted here so checks skip Next's per-request cost.
import { createServer } from "node:http";
import next from "next";
import { env } from "@/lib/env";

const settings = env();
const dev = settings.NODE_ENV !== "production";
const app = next({ dev, hostname: "localhost", port: settings.PORT });
await app.prepare();
const handle = app.getRequestHandler();

const server = createServer((request, response) => {
  void handle(request, response);
});
server.keepAliveTimeout = 65_000;
server.listen(settings.PORT, () => {
  console.log(`[sluice] listening on http://localhost:${settings.PORT} (${dev ? "development" : "production"})`);
});

function shutdown(): void {
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 3_000).unref();
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
