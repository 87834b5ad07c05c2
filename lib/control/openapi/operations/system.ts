import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { HealthSchema } from "@/lib/control/openapi/schemas/admin";
import { z } from "@/lib/control/openapi/zod";
import { errors } from "@/lib/control/openapi/schemas/errors";
import { STALL_SPANS } from "@/lib/shared/stall-spans";

// the answer of lib/check/http/stall-spans-endpoint.ts
const StallSpansSchema = z.object({
  now: z.number().describe("The front's clock when it answered, epoch ms: spans up to it are complete."),
  spans: z
    .array(z.tuple([z.number(), z.number()]))
    .max(STALL_SPANS)
    .describe("[start, end] in epoch ms, oldest first: spans the front's event loop could not run."),
});

// Unauthenticated operations: health, metrics, the front's stalls and this document itself.

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
    path: "/api/metrics/stalls",
    operationId: "metricsStalls",
    tags: ["System"],
    summary: "The check front's recent event-loop stalls",
    description:
      "Unauthenticated, as /api/metrics. The spans (at most 1,024, about 10 s on a loaded machine) in which the answering front's event loop could not run, ending after `since`.",
    security: [],
    request: { query: z.object({ since: z.number().min(0).optional().describe("Epoch ms.") }) },
    responses: {
      200: { description: "The spans.", content: { "application/json": { schema: StallSpansSchema } } },
      ...errors(400),
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
