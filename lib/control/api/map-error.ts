import "server-only";
import { z } from "zod";
import { issuesToErrors } from "@/lib/control/config/document/zod-issues";
import {
  ConflictError,
  ForbiddenError,
  isDatabaseUnavailable,
  NotFoundError,
  ValidationFailed,
} from "@/lib/control/errors/errors";
import { StoreUnavailableError } from "@/lib/control/data/counters-store";
import { ApiError } from "@/lib/control/api/api-error";
import { DocumentRefused, DocumentsBusy } from "@/lib/control/config/document/worker/check-document";
import { DocumentBudgetSpent, ImportInProgress } from "@/lib/control/config/document/worker/one-at-a-time";

// DAL and library errors -> the docs/api.md answer. Anything not recognised is a 500 whose body
// says only "internal error" and the request id: stack traces and SQL stay in the log.

/** Prisma's "unique constraint failed" (a race the DAL's own clash check did not see). */
function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

export const DATABASE_UNAVAILABLE = "The database is unavailable; nothing was changed.";

export function toApiError(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  // before ImportInProgress, which it and DocumentBudgetSpent extend
  if (error instanceof DocumentsBusy)
    return new ApiError("documents_busy", error.message, undefined, undefined, error.retryAfterSeconds);
  if (error instanceof DocumentBudgetSpent)
    return new ApiError(
      "document_budget_spent",
      error.message,
      undefined,
      undefined,
      error.retryAfterSeconds,
    );
  if (error instanceof ImportInProgress)
    return new ApiError("import_in_progress", error.message, undefined, undefined, error.retryAfterSeconds);
  if (error instanceof DocumentRefused) return new ApiError("payload_too_large", error.message, "body");
  if (error instanceof ValidationFailed) {
    const count = error.total;
    const listed = count > error.errors.length ? ` (the first ${error.errors.length} are listed)` : "";
    return new ApiError(
      "validation_failed",
      `The document has ${count} error${count === 1 ? "" : "s"}${listed}; nothing was changed.`,
      undefined,
      error.errors.map(({ path, message, line, column }) => ({ path, message, line, column })),
    );
  }
  if (error instanceof NotFoundError) return new ApiError("not_found", error.message);
  if (error instanceof ForbiddenError) return new ApiError("forbidden", error.message);
  if (error instanceof ConflictError) return new ApiError("conflict", error.message, error.path);
  if (error instanceof StoreUnavailableError) return new ApiError("store_unavailable", error.message);
  if (error instanceof z.ZodError) {
    const errors = issuesToErrors(error.issues);
    const first = errors[0];
    return new ApiError(
      "invalid_request",
      first ? `${first.path || "body"}: ${first.message}` : "The request is not valid.",
      first?.path,
      errors,
    );
  }
  if (isUniqueViolation(error)) return new ApiError("conflict", "That name is already taken.");
  // A write meeting an unreachable PostgreSQL did not happen (its transaction never committed).
  if (isDatabaseUnavailable(error)) {
    console.error("[sluice] the database is unavailable:", error);
    return new ApiError("database_unavailable", DATABASE_UNAVAILABLE);
  }
  return null;
}

export function errorResponse(error: unknown, requestId: string): Response {
  const known = toApiError(error);
  if (!known) {
    console.error(`[sluice] request ${requestId} failed:`, error);
    return Response.json(
      {
        error: {
          code: "internal_error",
          message: `Something went wrong on our side; quote request id ${requestId} when reporting it.`,
        },
      },
      { status: 500, headers: { "x-request-id": requestId, "cache-control": "no-store" } },
    );
  }
  const headers: Record<string, string> = { "x-request-id": requestId, "cache-control": "no-store" };
  if (known.retryAfter !== undefined) headers["retry-after"] = String(known.retryAfter);
  return Response.json(known.body(), { status: known.status, headers });
}
