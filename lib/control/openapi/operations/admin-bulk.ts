import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { BulkKeysInput, BulkLimitInput, PlanAssignmentInput } from "@/lib/control/bulk/bulk-inputs";
import {
  BulkLimitResultSchema,
  CreatedKeysSchema,
  PlanAssignmentSchema,
} from "@/lib/control/openapi/schemas/bulk";
import { errors } from "@/lib/control/openapi/schemas/errors";
import {
  ADMIN_HEADERS,
  ADMIN_SECURITY,
  TenantSlugParam,
} from "@/lib/control/openapi/operations/admin-common";
import { z } from "@/lib/control/openapi/zod";

// The bulk calls (docs/api.md, bulk changes): up to 1,000 items, one audited change making
// one config version, all or nothing.

const json = <T extends z.ZodType>(schema: T) => ({ "application/json": { schema } });

export function registerBulkOperations(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "post",
    path: "/api/admin/tenants/{slug}/keys/bulk",
    operationId: "createKeys",
    tags: ["Keys and tokens"],
    summary: "Create up to 1,000 API keys in one change (editors and above)",
    description:
      "All or none: a name the tenant has (409 at keys[i].name) or the per-tenant key cap (409 at keys) refuses the whole list.",
    security: ADMIN_SECURITY,
    request: {
      params: z.object({ slug: TenantSlugParam }),
      body: { required: true, content: json(BulkKeysInput) },
    },
    responses: {
      201: {
        description: "The keys, secrets shown only now.",
        headers: ADMIN_HEADERS,
        content: json(CreatedKeysSchema),
      },
      ...errors(400, 401, 403, 404, 409, 413, 415, 422, 503),
    },
  });
  registry.registerPath({
    method: "post",
    path: "/api/admin/plan-assignments",
    operationId: "assignPlan",
    tags: ["Configuration"],
    summary: "Move up to 1,000 tenants to a plan in one change (operators only)",
    description:
      "422 naming each unknown slug (tenants[i]) or the plan, or a tenant whose configuration the plan would make invalid; nothing moves then.",
    security: ADMIN_SECURITY,
    request: { body: { required: true, content: json(PlanAssignmentInput) } },
    responses: {
      200: { description: "What moved.", headers: ADMIN_HEADERS, content: json(PlanAssignmentSchema) },
      ...errors(400, 401, 403, 413, 415, 422, 503),
    },
  });
  registry.registerPath({
    method: "post",
    path: "/api/admin/limits/bulk",
    operationId: "applyLimit",
    tags: ["Configuration"],
    summary: "Add or replace one limit on up to 1,000 tenants, or keys of one tenant, in one change",
    description:
      "{ limit, tenants } sets a tenant-level limit, { limit, tenant, keys } a key-level one, validated as the document validates limits (errors at limit.<field>), with each target's rights and caps; all or nothing.",
    security: ADMIN_SECURITY,
    request: { body: { required: true, content: json(BulkLimitInput) } },
    responses: {
      200: {
        description: "What changed, per target.",
        headers: ADMIN_HEADERS,
        content: json(BulkLimitResultSchema),
      },
      ...errors(400, 401, 403, 404, 413, 415, 422, 503),
    },
  });
}
