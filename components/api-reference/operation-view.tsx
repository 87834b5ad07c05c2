import { SchemaType } from "@/components/api-reference/schema-view";
import type { OperationEntry } from "@/components/api-reference/types";

// One operation: what it does, who may call it, its parameters, body, answers and a curl.

function curlOf({ method, path, operation }: OperationEntry, origin: string): string {
  const lines = [`curl -X ${method.toUpperCase()} '${origin}${path}'`];
  if (operation.security?.some((s) => "serviceToken" in s || "adminToken" in s))
    lines.push(`  -H 'Authorization: Bearer $SLUICE_TOKEN'`);
  if (operation.requestBody?.content?.["application/json"]) {
    lines.push(`  -H 'Content-Type: application/json'`);
    if (path === "/api/check")
      lines.push(`  -d '{"apiKey":"…","route":"GET /v1/items/42","subject":"203.0.113.7"}'`);
    else lines.push(`  -d @body.json`);
  }
  return lines.join(" \\\n");
}

export function OperationView({ entry, origin }: { entry: OperationEntry; origin: string }) {
  const { method, path, operation } = entry;
  const security = operation.security ?? [];
  return (
    <article className="panel" id={`op-${operation.operationId ?? ""}`} data-testid="api-operation">
      <h3>
        <code>{method.toUpperCase()}</code> <code>{path}</code>
      </h3>
      <p>{operation.summary}</p>
      {operation.description && <p className="muted">{operation.description}</p>}
      <p>
        Authentication:{" "}
        {security.length === 0 ? "none" : security.map((s) => Object.keys(s).join(" + ")).join(" or ")}
      </p>
      {operation.parameters && operation.parameters.length > 0 && (
        <>
          <h4>Parameters</h4>
          <ul>
            {operation.parameters.map((p) => (
              <li key={`${p.in}-${p.name}`}>
                <code>{p.name}</code> ({p.in}
                {p.required ? ", required" : ""}): <SchemaType schema={p.schema} />
              </li>
            ))}
          </ul>
        </>
      )}
      {operation.requestBody?.content && (
        <>
          <h4>Request body</h4>
          <ul>
            {Object.entries(operation.requestBody.content).map(([type, media]) => (
              <li key={type}>
                <code>{type}</code>: <SchemaType schema={media.schema} />
              </li>
            ))}
          </ul>
        </>
      )}
      <h4>Responses</h4>
      <table>
        <tbody>
          {Object.entries(operation.responses).map(([status, response]) => (
            <tr key={status}>
              <td>
                <code>{status}</code>
              </td>
              <td>
                {response.description}
                {response.headers && (
                  <div className="muted">Headers: {Object.keys(response.headers).join(", ")}</div>
                )}
              </td>
              <td>
                {Object.entries(response.content ?? {}).map(([type, media]) => (
                  <div key={type}>
                    <code>{type}</code>: <SchemaType schema={media.schema} />
                  </div>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h4>Example</h4>
      <pre>{curlOf(entry, origin)}</pre>
    </article>
  );
}
