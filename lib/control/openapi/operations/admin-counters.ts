import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { UsageParams } from "@/lib/control/api/usage-params";
import { AuditQuery } from "@/lib/control/data/audit-log";
import { ResetInput } from "@/lib/control/counters/counter-reset";
import { CounterQuery } from "@/lib/control/counters/counter-query";
import {
  AuditPageSchema,
  CounterStateSchema,
  ResetResultSchema,
  UsageSeriesSchema,
} from "@/lib/control/openapi/schemas/admin";
import { errors } from "@/lib/control/openapi/schemas/errors";
import { ADMIN_HEADERS, ADMIN_SECURITY } from "@/lib/control/openapi/operations/admin-common";

// Counters (state, reset), the audit log and usage: reads, plus one audited write.

export function registerCounterOperations(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/api/admin/state",
    operationId: "counterState",
    tags: ["Counters and usage"],
    summary: "Current counters of every limit a check with these would meet",
    description: "Read without consuming anything.",
    security: ADMIN_SECURITY,
    request: { query: CounterQuery },
    responses: {
      200: {
        description: "The counters.",
        headers: ADMIN_HEADERS,
        content: { "application/json": { schema: CounterStateSchema } },
      },
      ...errors(400, 401, 404, 503),
    },
  });
  registry.registerPath({
    method: "post",
    path: "/api/admin/reset",
    operationId: "resetCounter",
    tags: ["Counters and usage"],
    summary: "Clear a limit's counters (audited)",
    description: "One owner's when key or subject names it, else every owner's.",
    security: ADMIN_SECURITY,
    request: { body: { required: true, content: { "application/json": { schema: ResetInput } } } },
    responses: {
      200: {
        description: "What was cleared.",
        headers: ADMIN_HEADERS,
        content: { "application/json": { schema: ResetResultSchema } },
      },
      ...errors(400, 401, 403, 404, 413, 415, 503),
    },
  });
  registry.registerPath({
    method: "post",
    path: "/api/admin/penalty/lift",
    operationId: "liftPenalty",
    tags: ["Counters and usage"],
    summary: "End a limit's penalty block (audited)",
    description:
      "One owner's when key or subject names it, else every owner's; every server forgets the blocks it holds at once (docs/algorithms.md, Penalties).",
    security: ADMIN_SECURITY,
    request: { body: { required: true, content: { "application/json": { schema: ResetInput } } } },
    responses: {
      200: {
        description: "How many blocks were lifted.",
        headers: ADMIN_HEADERS,
        content: {
          "application/json": {
            schema: z
              .strictObject({ tenant: z.string(), limit: z.string(), lifted: z.number().int() })
              .meta({ id: "LiftResult" }),
          },
        },
      },
      ...errors(400, 401, 403, 404, 413, 415, 503),
    },
  });
  registry.registerPath({
    method: "get",
    path: "/api/admin/audit",
    operationId: "auditLog",
    tags: ["Counters and usage"],
    summary: "The audit log, newest first",
    description: "`limit` is the page size; `before` is the previous page's `nextBefore`.",
    security: ADMIN_SECURITY,
    request: { query: AuditQuery },
    responses: {
      200: {
        description: "A page of entries.",
        headers: ADMIN_HEADERS,
        content: { "application/json": { schema: AuditPageSchema } },
      },
      ...errors(400, 401, 404, 503),
    },
  });
  registry.registerPath({
    method: "get",
    path: "/api/admin/usage",
    operationId: "usage",
    tags: ["Counters and usage"],
    summary: "Allowed / rejected / shadow-rejected / degraded counts per step",
    description: "from, to: ISO 8601 or epoch ms (default the last hour); step 1s..1d.",
    security: ADMIN_SECURITY,
    request: { query: UsageParams },
    responses: {
      200: {
        description: "The series.",
        headers: ADMIN_HEADERS,
        content: { "application/json": { schema: UsageSeriesSchema } },
      },
      ...errors(400, 401, 404, 503),
    },
  });
}
