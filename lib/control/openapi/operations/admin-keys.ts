import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { CreateKeyInput, RotateKeyInput } from "@/lib/control/keys/key-inputs";
import { CreateAdminTokenInput, CreateServiceTokenInput } from "@/lib/control/data/tokens";
import {
  CreatedKeySchema,
  CreatedTokenSchema,
  KeyListSchema,
  RevokedKeySchema,
  RotatedKeySchema,
} from "@/lib/control/openapi/schemas/admin";
import { errors } from "@/lib/control/openapi/schemas/errors";
import {
  ADMIN_HEADERS,
  ADMIN_SECURITY,
  KeyNameParam,
  TenantSlugParam,
} from "@/lib/control/openapi/operations/admin-common";
import { z } from "@/lib/control/openapi/zod";

// API keys of a tenant, service tokens (for /api/check) and admin tokens.

const json = <T extends z.ZodType>(schema: T) => ({ "application/json": { schema } });
const slugParams = z.object({ slug: TenantSlugParam });

export function registerKeyOperations(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/api/admin/tenants/{slug}/keys",
    operationId: "listKeys",
    tags: ["Keys and tokens"],
    summary: "List a tenant's API keys (never their secrets)",
    security: ADMIN_SECURITY,
    request: { params: slugParams },
    responses: {
      200: { description: "The keys.", headers: ADMIN_HEADERS, content: json(KeyListSchema) },
      ...errors(400, 401, 404, 503),
    },
  });
  registry.registerPath({
    method: "post",
    path: "/api/admin/tenants/{slug}/keys",
    operationId: "createKey",
    tags: ["Keys and tokens"],
    summary: "Create an API key (editors and above)",
    security: ADMIN_SECURITY,
    request: { params: slugParams, body: { required: true, content: json(CreateKeyInput) } },
    responses: {
      201: {
        description: "The key, with its secret shown only now.",
        headers: ADMIN_HEADERS,
        content: json(CreatedKeySchema),
      },
      ...errors(400, 401, 403, 404, 409, 413, 415, 422, 503),
    },
  });
  registry.registerPath({
    method: "delete",
    path: "/api/admin/tenants/{slug}/keys/{name}",
    operationId: "revokeKey",
    tags: ["Keys and tokens"],
    summary: "Revoke an API key (idempotent)",
    security: ADMIN_SECURITY,
    request: { params: z.object({ slug: TenantSlugParam, name: KeyNameParam }) },
    responses: {
      200: {
        description: "Revoked (also when it already was).",
        headers: ADMIN_HEADERS,
        content: json(RevokedKeySchema),
      },
      ...errors(400, 401, 403, 404, 503),
    },
  });
  registry.registerPath({
    method: "post",
    path: "/api/admin/tenants/{slug}/keys/{name}/rotate",
    operationId: "rotateKey",
    tags: ["Keys and tokens"],
    summary:
      "Rotate an API key: a new secret, the old one working until the grace period ends (editors and above)",
    description:
      "Both secrets authenticate as the same key (same counters, same limits) for `graceSeconds` (0 to 604800, 7 days); then the old one answers `revoked_key`. A key keeps one previous secret: rotating again ends the earlier one at once. A revoked key is 409.",
    security: ADMIN_SECURITY,
    request: {
      params: z.object({ slug: TenantSlugParam, name: KeyNameParam }),
      body: { required: true, content: json(RotateKeyInput) },
    },
    responses: {
      200: {
        description: "The key with its new secret, shown only now.",
        headers: ADMIN_HEADERS,
        content: json(RotatedKeySchema),
      },
      ...errors(400, 401, 403, 404, 409, 413, 415, 503),
    },
  });
  registry.registerPath({
    method: "post",
    path: "/api/admin/service-tokens",
    operationId: "createServiceToken",
    tags: ["Keys and tokens"],
    summary: "Create a service token for /api/check",
    description: "Without tenants it may check for every tenant (operators only).",
    security: ADMIN_SECURITY,
    request: { body: { required: true, content: json(CreateServiceTokenInput) } },
    responses: {
      201: {
        description: "The token, shown only now.",
        headers: ADMIN_HEADERS,
        content: json(CreatedTokenSchema),
      },
      ...errors(400, 401, 403, 404, 413, 415, 503),
    },
  });
  registry.registerPath({
    method: "post",
    path: "/api/admin/admin-tokens",
    operationId: "createAdminToken",
    tags: ["Keys and tokens"],
    summary: "Create an admin token",
    description:
      "Without a tenant the token is an operator's (operators only); nobody mints a role above their own.",
    security: ADMIN_SECURITY,
    request: { body: { required: true, content: json(CreateAdminTokenInput) } },
    responses: {
      201: {
        description: "The token, shown only now.",
        headers: ADMIN_HEADERS,
        content: json(CreatedTokenSchema),
      },
      ...errors(400, 401, 403, 404, 413, 415, 503),
    },
  });
}
