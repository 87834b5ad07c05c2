import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { OverrideInput, OverrideListQuery } from "@/lib/control/overrides/override-input";
import { errors } from "@/lib/control/openapi/schemas/errors";
import { ADMIN_HEADERS, ADMIN_SECURITY } from "@/lib/control/openapi/operations/admin-common";

// Temporary overrides (docs/overrides.md): list, create, end early.

export const OverrideSchema = z
  .strictObject({
    id: z.string(),
    tenant: z.string(),
    key: z.string().nullable(),
    subject: z.string().nullable(),
    limit: z.string(),
    value: z.union([z.number().int(), z.literal("disabled")]),
    startsAt: z.string(),
    endsAt: z.string().openapi({ description: "when it ends, or ended (early)" }),
    plannedEndsAt: z.string(),
    reason: z.string(),
    createdBy: z.string(),
    createdAt: z.string(),
    endedAt: z.string().nullable(),
    endedBy: z.string().nullable(),
    state: z.enum(["upcoming", "active", "ended"]),
  })
  .openapi("Override");

export const OverrideListSchema = z
  .strictObject({ at: z.number().int(), overrides: z.array(OverrideSchema) })
  .openapi("OverrideList");

export function registerOverrideOperations(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/api/admin/overrides",
    operationId: "listOverrides",
    tags: ["Overrides"],
    summary: "Temporary overrides in force and waiting",
    description: "One tenant's (viewer and up), or without `tenant` every tenant's (operators).",
    security: ADMIN_SECURITY,
    request: { query: OverrideListQuery },
    responses: {
      200: {
        description: "The overrides, earliest start first.",
        headers: ADMIN_HEADERS,
        content: {
          "application/json": {
            schema: OverrideListSchema,
          },
        },
      },
      ...errors(400, 401, 403, 404, 503),
    },
  });
  registry.registerPath({
    method: "post",
    path: "/api/admin/overrides",
    operationId: "createOverride",
    tags: ["Overrides"],
    summary: "Override one limit for a while (audited)",
    description:
      "Raise, lower (0 blocks) or disable one limit for a tenant, one of its keys or one subject, from `startsAt` (default now) until `endsAt` (at most 90 days ahead). Editor role; a plan's or global route's limit needs an operator.",
    security: ADMIN_SECURITY,
    request: { body: { required: true, content: { "application/json": { schema: OverrideInput } } } },
    responses: {
      201: {
        description: "The override.",
        headers: ADMIN_HEADERS,
        content: { "application/json": { schema: OverrideSchema } },
      },
      ...errors(400, 401, 403, 404, 409, 413, 415, 503),
    },
  });
  registry.registerPath({
    method: "post",
    path: "/api/admin/overrides/{id}/end",
    operationId: "endOverride",
    tags: ["Overrides"],
    summary: "End an override now (audited)",
    description: "One that has not started yet is cancelled.",
    security: ADMIN_SECURITY,
    request: { params: z.object({ id: z.string() }) },
    responses: {
      200: {
        description: "The override, ended.",
        headers: ADMIN_HEADERS,
        content: { "application/json": { schema: OverrideSchema } },
      },
      ...errors(401, 403, 404, 409, 503),
    },
  });
}
