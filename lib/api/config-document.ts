import "server-only";
import { Document, isPair, isScalar, isSeq, visit } from "yaml";
import type { ConfigDocument } from "@/lib/config/document";
import { locateErrors, parseDocumentText, structureProblem } from "@/lib/config/document";
import { ValidationFailed } from "@/lib/data/errors";
import { ApiError } from "@/lib/api/api-error";
import { wantsYaml } from "@/lib/api/content-type";
import { DOCUMENT_BODY_LIMIT, readBodyText, requireFormat } from "@/lib/api/read-body";

// The config document over HTTP: read a PUT body (YAML or JSON by Content-Type) and answer
// an export in the format the client accepts.

/**
 * The parsed, not yet validated, document; syntax errors are document errors (422), a
 * structure past its bounds (nesting, token count) is 413 naming the bound. The caller
 * authorizes first (lib/data/import-access.ts): only then is the body read and parsed.
 */
export async function readDocumentBody(request: Request): Promise<{ input: unknown; text: string }> {
  const format = requireFormat(request, ["json", "yaml"], null);
  const text = await readBodyText(request, DOCUMENT_BODY_LIMIT);
  const problem = structureProblem(text, format);
  if (problem !== null) throw new ApiError("payload_too_large", `The document is too large: ${problem}.`);
  const parsed = parseDocumentText(text, format);
  if (!parsed.ok) throw new ValidationFailed(locateErrors(text, parsed.errors));
  return { input: parsed.input, text };
}

/** Runs an import of `text`; its document errors come back with line and column. */
export async function locatedIn<T>(text: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ValidationFailed) throw new ValidationFailed(locateErrors(text, error.errors));
    throw error;
  }
}

export function documentResponse(request: Request, document: ConfigDocument): Response {
  if (wantsYaml(request.headers.get("accept"))) {
    return new Response(toYaml(document), { headers: { "content-type": "application/yaml; charset=utf-8" } });
  }
  return Response.json(document);
}

/** YAML with each limit on one line, `{ name: rpm, by: tenant, ... }`, as docs/configuration.md writes them. */
export function toYaml(document: ConfigDocument): string {
  const yaml = new Document(document);
  visit(yaml, {
    Map(_key, node, path) {
      const list = path.at(-1);
      const field = path.at(-2);
      if (isSeq(list) && isPair(field) && isScalar(field.key) && field.key.value === "limits")
        node.flow = true;
    },
  });
  return yaml.toString({ lineWidth: 0, flowCollectionPadding: true });
}
