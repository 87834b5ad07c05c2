import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { sluiceExpress, type SluiceClient } from "@sluice/client";
import { frameworkSuite } from "./framework-suite";

// A real Express 5 app guarded by the middleware: app-wide (with a route function, since
// app-wide middleware runs before Express matched a route) or on the routes themselves.

const servers: Server[] = [];

async function serve(client: SluiceClient, mode: "app" | "route"): Promise<string> {
  const application = express();
  application.set("trust proxy", false);
  if (mode === "app") application.use(sluiceExpress({ client, route: (req) => `${req.method} /users/:id` }));
  const handlers = mode === "route" ? [sluiceExpress({ client })] : [];
  application.get("/users/:id", ...handlers, (req, res) => {
    res.json({ id: req.params.id });
  });
  application.post("/exports/:format", ...handlers, (_req, res) => {
    res.json({ exported: true });
  });
  const server = application.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

frameworkSuite({
  name: "Express middleware",
  prefix: "cx",
  serve,
  closeAll: async () => {
    for (const server of servers) server.close();
  },
});
