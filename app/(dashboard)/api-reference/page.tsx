import type { Metadata } from "next";
import { OperationView } from "@/components/api-reference/operation-view";
import { SchemaView } from "@/components/api-reference/schema-view";
import type { JsonSchema, Operation, OperationEntry } from "@/components/api-reference/types";
import { requireUser } from "@/lib/control/auth/session";
import { env } from "@/lib/shared/env";
import { openApiDocument } from "@/lib/control/openapi/generate";

// The API reference: the OpenAPI document of /api/openapi.json rendered on the server, with
// nothing fetched from elsewhere (no CDN, no scripts), grouped by tag.

export const metadata: Metadata = { title: "API reference" };

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

function operationsOf(paths: Record<string, unknown>): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const [path, item] of Object.entries(paths)) {
    const ops = item as Partial<Record<(typeof METHODS)[number], Operation>>;
    for (const method of METHODS) {
      const operation = ops[method];
      if (operation) entries.push({ method, path, operation });
    }
  }
  return entries;
}

export default async function ApiReferencePage() {
  await requireUser();
  const document = openApiDocument();
  const operations = operationsOf((document.paths ?? {}) as Record<string, unknown>);
  const schemas = (document.components?.schemas ?? {}) as Record<string, JsonSchema>;
  const origin = env().NEXTAUTH_URL?.replace(/\/$/, "") ?? `http://localhost:${env().PORT}`;
  return (
    <section>
      <h1>API reference</h1>
      <p>
        Generated from the schemas the server validates with; the same document, for code generators, is at{" "}
        <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1). Errors always have the body{" "}
        <code>{"{ error: { code, message, path? } }"}</code>.
      </p>
      {(document.tags ?? []).map((tag) => (
        <section key={tag.name} aria-label={tag.name}>
          <h2>{tag.name}</h2>
          {tag.description && <p className="muted">{tag.description}</p>}
          {operations
            .filter((entry) => entry.operation.tags?.includes(tag.name))
            .map((entry) => (
              <OperationView key={`${entry.method} ${entry.path}`} entry={entry} origin={origin} />
            ))}
        </section>
      ))}
      <h2>Schemas</h2>
      {Object.entries(schemas).map(([name, schema]) => (
        <div className="panel" key={name} id={`schema-${name}`}>
          <h3>{name}</h3>
          {schema.description && <p className="muted">{schema.description}</p>}
          <SchemaView schema={schema} />
        </div>
      ))}
    </section>
  );
}
