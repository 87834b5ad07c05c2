import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import {
  BatchAnswerSchema,
  BatchRequestSchema,
  CheckRequestSchema,
  DecisionSchema,
  RATE_LIMIT_HEADERS,
  ReleaseAnswerSchema,
  ReleaseRequestSchema,
} from "@/lib/control/openapi/schemas/check";
import { errors } from "@/lib/control/openapi/schemas/errors";

// POST /api/check and /api/check/batch (lib/enforce/http/check-endpoint.ts): 401 before
// the body is read, then 413, 400, then 403 for a tenant the token may not check.

const SERVICE: Record<string, string[]>[] = [{ serviceToken: [] }];

export function registerCheckOperations(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "post",
    path: "/api/check",
    operationId: "check",
    tags: ["Checks"],
    summary: "Decide one request",
    description: "Evaluates every limit that applies in one atomic step. Body at most 64 KiB.",
    security: SERVICE,
    request: { body: { required: true, content: { "application/json": { schema: CheckRequestSchema } } } },
    responses: {
      200: {
        description: "The decision, with the RateLimit headers of the enforce limits evaluated.",
        headers: RATE_LIMIT_HEADERS,
        content: { "application/json": { schema: DecisionSchema } },
      },
      ...errors(400, 401, 403, 413),
    },
  });
  registry.registerPath({
    method: "post",
    path: "/api/check/batch",
    operationId: "checkBatch",
    tags: ["Checks"],
    summary: "Decide up to 1000 requests",
    description:
      "Each check decided on its own; a bad one gets its own error in its place. Body at most 1 MiB.",
    security: SERVICE,
    request: { body: { required: true, content: { "application/json": { schema: BatchRequestSchema } } } },
    responses: {
      200: {
        description: "One result per check, in order.",
        content: { "application/json": { schema: BatchAnswerSchema } },
      },
      ...errors(400, 401, 413),
    },
  });
  registry.registerPath({
    method: "post",
    path: "/api/check/release",
    operationId: "releaseLease",
    tags: ["Checks"],
    summary: "Release leases of concurrency limits",
    description:
      "Ends the leases admitted checks answered (docs/algorithms.md, concurrency limits). Idempotent. Body at most 1 MiB.",
    security: SERVICE,
    request: { body: { required: true, content: { "application/json": { schema: ReleaseRequestSchema } } } },
    responses: {
      200: {
        description: "Whether each lease was still held (and is now free).",
        content: { "application/json": { schema: ReleaseAnswerSchema } },
      },
      ...errors(400, 401, 403, 413, 503),
    },
  });
}
