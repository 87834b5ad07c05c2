// The error answers of docs/api.md: `{ error: { code, message, path? } }`, plus `errors` for a
// document that fails validation. Isomorphic (no server imports) so unit tests and the
// dashboard's fetch helpers can share the types.

export type ErrorCode =
  | "invalid_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "import_in_progress"
  | "payload_too_large"
  | "documents_busy"
  | "document_budget_spent"
  | "unsupported_media_type"
  | "validation_failed"
  | "store_unavailable"
  | "database_unavailable"
  | "internal_error";

export interface FieldError {
  path: string;
  message: string;
  /** for a document sent as text: where the error is (1-based) */
  line?: number;
  column?: number;
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; path?: string };
  errors?: FieldError[];
}

const STATUS: Record<ErrorCode, number> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  import_in_progress: 409,
  payload_too_large: 413,
  documents_busy: 429,
  document_budget_spent: 429,
  unsupported_media_type: 415,
  validation_failed: 422,
  store_unavailable: 503,
  database_unavailable: 503,
  internal_error: 500,
};

/** An answer a handler (or a helper) chose on purpose; the wrapper turns it into a response. */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly path?: string,
    readonly errors?: FieldError[],
    /** seconds for a Retry-After header (a refusal that passes by itself) */
    readonly retryAfter?: number,
  ) {
    super(message);
  }

  get status(): number {
    return STATUS[this.code];
  }

  body(): ErrorBody {
    const error: ErrorBody["error"] = { code: this.code, message: this.message };
    if (this.path !== undefined && this.path !== "") error.path = this.path;
    return this.errors ? { error, errors: this.errors } : { error };
  }
}
