import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { ImportQuery } from "@/lib/control/api/import-query";
import { documentSchema } from "@/lib/control/config/document";
import { ImportResultSchema } from "@/lib/control/openapi/schemas/admin";
import { errors } from "@/lib/control/openapi/schemas/errors";
import { ADMIN_HEADERS, ADMIN_SECURITY } from "@/lib/control/openapi/operations/admin-common";
import { z } from "@/lib/control/openapi/zod";

// GET/PUT /api/admin/config: the configuration document of lib/control/config/document, as JSON
// or YAML (the same schema either way).

const ConfigDocumentSchema = documentSchema.meta({
  id: "ConfigDocument",
  description: "Plans, global routes and tenants with their keys and limits (docs/).",
});

const yamlText = z.string().openapi({ description: "The same document as YAML." });

export function registerConfigOperations(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/api/admin/config",
    operationId: "exportConfig",
    tags: ["Configuration"],
    summary: "Export the configuration document",
    description:
      "YAML when Accept asks for application/yaml, else JSON. A tenant-scoped caller gets only its tenant(s).",
    security: ADMIN_SECURITY,
    responses: {
      200: {
        description: "The document.",
        headers: ADMIN_HEADERS,
        content: {
          "application/json": { schema: ConfigDocumentSchema },
          "application/yaml": { schema: yamlText },
        },
      },
      ...errors(400, 401, 503),
    },
  });
  registry.registerPath({
    method: "put",
    path: "/api/admin/config",
    operationId: "importConfig",
    tags: ["Configuration"],
    summary: "Import a configuration document (all or nothing)",
    description:
      "Validates everything first and reports every error; `dryRun` answers the changes without applying them; `prune` deletes tenants the document does not list. Body at most 2 MiB. With `format=envoy` the body is envoyproxy/ratelimit's YAML file (at most 64 KiB), converted into one tenant on the plan `plan` (docs/envoy-migration.md); the answer adds `envoy` with the conversion's report, and `prune` is refused.",
    security: ADMIN_SECURITY,
    request: {
      query: ImportQuery,
      body: {
        required: true,
        content: {
          "application/json": { schema: ConfigDocumentSchema },
          "application/yaml": {
            schema: yamlText.openapi({
              description: "The same document as YAML, or with format=envoy an envoy ratelimit file.",
            }),
          },
        },
      },
    },
    responses: {
      200: {
        description: "What changed (or would change) and the new config version.",
        headers: ADMIN_HEADERS,
        content: { "application/json": { schema: ImportResultSchema } },
      },
      ...errors(400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
    },
  });
}
