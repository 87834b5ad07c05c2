import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { HealthSchema } from "@/lib/control/openapi/schemas/admin";
import { z } from "@/lib/control/openapi/zod";

// Unauthenticated operations: health, metrics and this document itself.

export function registerSystemOperations(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/api/health",
    operationId: "health",
    tags: ["System"],
    summary: "Reachability of PostgreSQL and Redis",
    description: "Unauthenticated; answers only ok/degraded/down, never driver text, hosts or ports.",
    security: [],
    responses: {
      200: { description: "Both stores answer.", content: { "application/json": { schema: HealthSchema } } },
      503: { description: "A store is down.", content: { "application/json": { schema: HealthSchema } } },
    },
  });
  registry.registerPath({
    method: "get",
    path: "/api/metrics",
    operationId: "metrics",
    tags: ["System"],
    summary: "Prometheus metrics",
    security: [],
    responses: {
      200: {
        description: "Prometheus text exposition format 0.0.4.",
        content: { "text/plain": { schema: z.string() } },
      },
    },
  });
  registry.registerPath({
    method: "get",
    path: "/api/openapi.json",
    operationId: "openapi",
    tags: ["System"],
    summary: "This OpenAPI 3.1 document",
    description: "Unauthenticated: a description of the API, holding no secrets.",
    security: [],
    responses: {
      200: {
        description: "The document, generated from the schemas the server validates with.",
        content: { "application/json": { schema: z.object({ openapi: z.string() }).passthrough() } },
      },
    },
  });
}
