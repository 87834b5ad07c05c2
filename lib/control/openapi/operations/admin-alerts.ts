import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { CreateEndpointInput, CreateRuleInput } from "@/lib/control/alerts/input/inputs";
import {
  AlertDeliveryListSchema,
  AlertEndpointListSchema,
  AlertRuleListSchema,
  AlertRuleSchema,
  CreatedAlertEndpointSchema,
  DisabledSchema,
} from "@/lib/control/openapi/schemas/alerts";
import { errors } from "@/lib/control/openapi/schemas/errors";
import {
  ADMIN_HEADERS,
  ADMIN_SECURITY,
  TenantSlugParam,
} from "@/lib/control/openapi/operations/admin-common";
import { z } from "@/lib/control/openapi/zod";

// Near-limit alerts of a tenant (docs/alerts.md): webhook endpoints, rules, the delivery log.

const json = <T extends z.ZodType>(schema: T) => ({ "application/json": { schema } });
const slugParams = z.object({ slug: TenantSlugParam });
const base = "/api/admin/tenants/{slug}/alerts";
const tags = ["Alerts"];
const ok = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  headers: ADMIN_HEADERS,
  content: json(schema),
});

export function registerAlertOperations(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: `${base}/endpoints`,
    operationId: "listAlertEndpoints",
    tags,
    summary: "List a tenant's webhook endpoints (never their secrets)",
    security: ADMIN_SECURITY,
    request: { params: slugParams },
    responses: { 200: ok("The endpoints.", AlertEndpointListSchema), ...errors(400, 401, 404, 503) },
  });
  registry.registerPath({
    method: "post",
    path: `${base}/endpoints`,
    operationId: "createAlertEndpoint",
    tags,
    summary: "Create a webhook endpoint (admins and above)",
    description:
      "http or https only. A host that is or resolves to a loopback, private or link-local address is refused unless an operator sets allowPrivate.",
    security: ADMIN_SECURITY,
    request: { params: slugParams, body: { required: true, content: json(CreateEndpointInput) } },
    responses: {
      201: ok("The endpoint, with its signing secret shown only now.", CreatedAlertEndpointSchema),
      ...errors(400, 401, 403, 404, 409, 413, 415, 503),
    },
  });
  registry.registerPath({
    method: "delete",
    path: `${base}/endpoints/{name}`,
    operationId: "disableAlertEndpoint",
    tags,
    summary: "Disable a webhook endpoint (idempotent)",
    security: ADMIN_SECURITY,
    request: {
      params: z.object({
        slug: TenantSlugParam,
        name: z.string().openapi({ param: { name: "name", in: "path" } }),
      }),
    },
    responses: { 200: ok("Disabled.", DisabledSchema), ...errors(400, 401, 403, 404, 503) },
  });
  registry.registerPath({
    method: "get",
    path: `${base}/rules`,
    operationId: "listAlertRules",
    tags,
    summary: "List a tenant's alert rules and which are firing",
    security: ADMIN_SECURITY,
    request: { params: slugParams },
    responses: { 200: ok("The rules.", AlertRuleListSchema), ...errors(400, 401, 404, 503) },
  });
  registry.registerPath({
    method: "post",
    path: `${base}/rules`,
    operationId: "createAlertRule",
    tags,
    summary: "Create an alert rule (editors and above)",
    security: ADMIN_SECURITY,
    request: { params: slugParams, body: { required: true, content: json(CreateRuleInput) } },
    responses: { 201: ok("The rule.", AlertRuleSchema), ...errors(400, 401, 403, 404, 409, 413, 415, 503) },
  });
  registry.registerPath({
    method: "delete",
    path: `${base}/rules/{id}`,
    operationId: "disableAlertRule",
    tags,
    summary: "Disable an alert rule; a firing alert of it resolves (idempotent)",
    security: ADMIN_SECURITY,
    request: {
      params: z.object({
        slug: TenantSlugParam,
        id: z.string().openapi({ param: { name: "id", in: "path" } }),
      }),
    },
    responses: { 200: ok("Disabled.", DisabledSchema), ...errors(400, 401, 403, 404, 503) },
  });
  registry.registerPath({
    method: "get",
    path: `${base}/deliveries`,
    operationId: "listAlertDeliveries",
    tags,
    summary: "The webhook delivery log, newest first",
    security: ADMIN_SECURITY,
    request: { params: slugParams, query: z.object({ limit: z.number().int().min(1).max(200).optional() }) },
    responses: { 200: ok("The deliveries.", AlertDeliveryListSchema), ...errors(400, 401, 404, 503) },
  });
}
