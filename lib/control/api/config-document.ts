import "server-only";
import { documentYaml } from "@sluice/client/text";
import type { ConfigDocument, SourcePositions } from "@/lib/control/config/document";
import { locateErrors } from "@/lib/control/config/document";
import { checkedText, type CheckedText } from "@/lib/control/data/document-text";
import { ValidationFailed } from "@/lib/control/errors/errors";
import { wantsYaml } from "@/lib/control/api/content-type";
import {
  DOCUMENT_BODY_LIMIT,
  OPERATOR_DOCUMENT_BODY_LIMIT,
  readBodyText,
  requireFormat,
} from "@/lib/control/api/read-body";
import { isOperator, type Principal } from "@/lib/shared/principal";
import { MEMBER_BUDGET, OPERATOR_BUDGET } from "@/lib/control/config/document/worker/check-document";

// The config document over HTTP: read a PUT body (YAML or JSON by Content-Type) and answer
// an export in the format the client accepts.

/**
 * The parsed and validated document (lib/control/data/document-text.ts: in a worker past a few
 * KiB); syntax and document errors are 422 with their lines, a structure past its bounds
 * or past the worker's budget is 413 naming the body. The caller authorizes first
 * (lib/data/import-access.ts): only then is the body read and parsed.
 */
export async function readDocumentBody(request: Request, principal: Principal): Promise<CheckedText> {
  const format = requireFormat(request, ["json", "yaml"], null);
  // operators import whole installations; everyone else a tenant's part
  const operator = isOperator(principal);
  const text = await readBodyText(request, operator ? OPERATOR_DOCUMENT_BODY_LIMIT : DOCUMENT_BODY_LIMIT);
  return checkedText(text, format, operator ? OPERATOR_BUDGET : MEMBER_BUDGET);
}

/** Runs an import of the document; its errors come back with line and column. */
export async function locatedIn<T>(positions: SourcePositions, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ValidationFailed)
      throw new ValidationFailed(locateErrors(error.errors, positions), error.total);
    throw error;
  }
}

export function documentResponse(request: Request, document: ConfigDocument): Response {
  if (wantsYaml(request.headers.get("accept"))) {
    // each limit on one line, as docs/configuration.md writes them (the CLI writes the same)
    return new Response(documentYaml(document), {
      headers: { "content-type": "application/yaml; charset=utf-8" },
    });
  }
  return Response.json(document);
}
