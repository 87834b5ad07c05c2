import "server-only";
import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { registerAlertOperations } from "@/lib/control/openapi/operations/admin-alerts";
import { registerBulkOperations } from "@/lib/control/openapi/operations/admin-bulk";
import { registerConfigOperations } from "@/lib/control/openapi/operations/admin-config";
import { registerCounterOperations } from "@/lib/control/openapi/operations/admin-counters";
import { registerKeyOperations } from "@/lib/control/openapi/operations/admin-keys";
import { registerOpsToolOperations } from "@/lib/control/openapi/operations/admin-ops-tools";
import { registerReplayOperations } from "@/lib/control/openapi/operations/admin-replay";
import { registerOverrideOperations } from "@/lib/control/openapi/operations/admin-overrides";
import { registerCheckOperations } from "@/lib/control/openapi/operations/check";
import { registerAdjustOperation } from "@/lib/control/openapi/operations/check-adjust";
import { registerSystemOperations } from "@/lib/control/openapi/operations/system";
import { METHOD_NOT_ALLOWED } from "@/lib/control/openapi/schemas/errors";

// The OpenAPI 3.1 document, generated from the zod schemas the server validates with, once
// per process (the schemas do not change while it runs).

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31["generateDocument"]>;

// The paths served on node:http (lib/enforce/http/lean-router.ts), whose 405 is the JSON error.
const LEAN_PATHS = new Set([
  "/api/check",
  "/api/check/batch",
  "/api/check/adjust",
  "/api/check/release",
  "/api/metrics",
  "/api/metrics/stalls",
]);
const METHODS = ["get", "put", "post", "delete", "patch"] as const;

function build(): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "serviceToken", {
    type: "http",
    scheme: "bearer",
    description: "A service token (POST /api/admin/service-tokens) or the bootstrap token.",
  });
  registry.registerComponent("securitySchemes", "adminToken", {
    type: "http",
    scheme: "bearer",
    description: "An admin token (a role in one tenant, or operator rights) or the bootstrap token.",
  });
  registry.registerComponent("securitySchemes", "session", {
    type: "apiKey",
    in: "cookie",
    name: "next-auth.session-token",
    description: "A dashboard session (signed in through the dashboard).",
  });
  registerCheckOperations(registry);
  registerAdjustOperation(registry);
  registerConfigOperations(registry);
  registerKeyOperations(registry);
  registerBulkOperations(registry);
  registerCounterOperations(registry);
  registerOpsToolOperations(registry);
  registerAlertOperations(registry);
  registerReplayOperations(registry);
  registerOverrideOperations(registry);
  registerSystemOperations(registry);
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Sluice",
      version: "1",
      description:
        "Multi-tenant rate limiting: decisions at /api/check, configuration and keys under /api/admin. Errors always have the body `{ error: { code, message, path? } }`.",
    },
    tags: [
      { name: "Checks", description: "Ask before serving a request." },
      { name: "Configuration", description: "The configuration document, as code." },
      { name: "Keys and tokens", description: "API keys of tenants, service and admin tokens." },
      { name: "Counters and usage", description: "Counters, resets, audit log and usage." },
      { name: "Alerts", description: "Near-limit alerts: webhook endpoints, rules, deliveries." },
      { name: "Overrides", description: "Temporary changes of one limit, applied and ended on time." },
      { name: "System", description: "Health, metrics and this document." },
    ],
  });
  // Every operation can meet a wrong method on its path: 405, declared once here.
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation?.responses)
        operation.responses["405"] ??= LEAN_PATHS.has(path)
          ? METHOD_NOT_ALLOWED.json
          : METHOD_NOT_ALLOWED.empty;
    }
  }
  return document;
}

let cached: OpenApiDocument | null = null;

export function openApiDocument(): OpenApiDocument {
  cached ??= build();
  return cached;
}
