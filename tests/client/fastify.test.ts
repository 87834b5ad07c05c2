import Fastify, { type FastifyInstance } from "fastify";
import { sluiceFastify, type SluiceClient } from "@sluice/client";
import { frameworkSuite } from "./framework-suite";

// A real Fastify 5 app guarded by the onRequest hook: app-wide or per route.

const apps: FastifyInstance[] = [];

async function serve(client: SluiceClient, mode: "app" | "route"): Promise<string> {
  const fastify = Fastify();
  const hook = sluiceFastify({ client });
  if (mode === "app") fastify.addHook("onRequest", hook);
  const routeHook = mode === "route" ? { onRequest: hook } : {};
  fastify.get<{ Params: { id: string } }>("/users/:id", routeHook, async (request) => ({
    id: request.params.id,
  }));
  fastify.post("/exports/:format", routeHook, async () => ({ exported: true }));
  apps.push(fastify);
  return fastify.listen({ port: 0, host: "127.0.0.1" });
}

frameworkSuite({
  name: "Fastify hook",
  prefix: "cf",
  serve,
  closeAll: async () => {
    for (const fastify of apps) await fastify.close();
  },
});
