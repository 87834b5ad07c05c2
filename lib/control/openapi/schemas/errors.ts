import { z } from "@/lib/control/openapi/zod";

// The error body every endpoint answers (`{ error: { code, message, path? }, errors? }`).
// The codes are those of lib/control/api/api-error.ts plus the check path's own (lib/enforce/http).

export const ERROR_CODES = [
  "invalid_request",
  "unauthorized",
  "forbidden",
  "not_found",
  "conflict",
  "import_in_progress",
  "payload_too_large",
  "documents_busy",
  "document_budget_spent",
  "unsupported_media_type",
  "validation_failed",
  "store_unavailable",
  "database_unavailable",
  "internal_error",
  "internal",
  "method_not_allowed",
  "request_timeout",
  "check_expired",
  "over_refund",
  "over_charge",
] as const;

export const FieldErrorSchema = z
  .object({
    path: z.string(),
    message: z.string(),
    line: z
      .number()
      .int()
      .optional()
      .openapi({ description: "Line of a document error in the text sent (1-based)." }),
    column: z.number().int().optional().openapi({ description: "Its column (1-based)." }),
  })
  .openapi("FieldError", { description: "One error of a request or document, at its field path." });

export const ErrorBodySchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES),
      message: z.string().openapi({ description: "A sentence naming the field and the rule." }),
      path: z
        .string()
        .optional()
        .openapi({ description: 'The field, e.g. "cost" or "tenants[0].limits[1].limit".' }),
    }),
    errors: z.array(FieldErrorSchema).optional().openapi({ description: "Every error, for 400 and 422." }),
  })
  .openapi("Error");

const error = (description: string) => ({
  description,
  content: { "application/json": { schema: ErrorBodySchema } },
});

/** Standard error responses by status; operations pick the ones they can answer. */
export const ERRORS = {
  400: error("invalid_request: a field is wrong (the message and path name it)."),
  401: error("unauthorized: no or an unknown bearer token / session."),
  403: error("forbidden: the caller's role or tenants do not allow this."),
  404: error("not_found: no such object, or one the caller may not see."),
  409: error(
    "conflict: the name is taken; import_in_progress: this caller's import or preview is already running (Retry-After).",
  ),
  413: error("payload_too_large: the body (or document structure) is over its bound."),
  429: error(
    "documents_busy: every document worker is busy and its queue full; document_budget_spent: this caller's imports and previews used its share of document time; nothing was changed (Retry-After).",
  ),
  415: error("unsupported_media_type: send application/json (or application/yaml where allowed)."),
  422: error("validation_failed: the document has errors, all listed in `errors`; nothing was changed."),
  503: error("store_unavailable / database_unavailable: a store did not answer; nothing was changed."),
} as const;

export type ErrorStatus = keyof typeof ERRORS;

export function errors(
  ...statuses: ErrorStatus[]
): Partial<Record<ErrorStatus, (typeof ERRORS)[ErrorStatus]>> {
  const out: Partial<Record<ErrorStatus, (typeof ERRORS)[ErrorStatus]>> = {};
  for (const status of statuses) out[status] = ERRORS[status];
  return out;
}

/**
 * 405 of a path asked with a method it does not take. The enforcement endpoints (served on
 * node:http: /api/check, /api/check/batch, /api/metrics) answer the JSON error with
 * `Allow`; the others (served by Next.js) answer an empty 405.
 */
export const METHOD_NOT_ALLOWED = {
  json: {
    description: "method_not_allowed: this path does not take that method; `Allow` lists the one it takes.",
    headers: {
      allow: { description: "The method this path takes.", schema: { type: "string" }, required: true },
    },
    // added to the generated document, so the registered component by reference
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  },
  empty: { description: "This path does not take that method (an empty answer)." },
} as const;
