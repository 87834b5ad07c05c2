import "server-only";
import type { DocumentError } from "@/lib/config/document";

// Errors the DAL throws; route handlers and server actions map them to answers.

export class NotFoundError extends Error {
  override name = "NotFoundError";
}

export class ForbiddenError extends Error {
  override name = "ForbiddenError";
}

export class ConflictError extends Error {
  override name = "ConflictError";
  constructor(
    message: string,
    readonly path?: string,
  ) {
    super(message);
  }
}

export class ValidationFailed extends Error {
  override name = "ValidationFailed";
  constructor(readonly errors: DocumentError[]) {
    super(errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join("; "));
  }
}
