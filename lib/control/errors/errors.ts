import "server-only";
import type { DocumentError } from "@/lib/control/config/document";

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
  /** `total`: the errors found, when only the first of them are listed */
  constructor(
    readonly errors: DocumentError[],
    readonly total: number = errors.length,
  ) {
    super(errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join("; "));
  }
}

// Prisma's codes for "the server could not be reached / went away / no connection in time",
// the driver adapter's kinds for the same, and PostgreSQL's connection-exception class (08)
// and shutdown codes (57P01-57P03). Structural, so callers outside lib/control/data need no Prisma.
const UNAVAILABLE_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "57P01", "57P02", "57P03"]);
const UNAVAILABLE_KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
]);
const UNAVAILABLE_ERRNO = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EPIPE",
]);

/** Whether an error means PostgreSQL could not be reached (the write did not happen). */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== "object" || error === null || depth > 4) return false;
  const e = error as { code?: unknown; kind?: unknown; meta?: unknown; cause?: unknown; message?: unknown };
  if (
    typeof e.code === "string" &&
    (UNAVAILABLE_CODES.has(e.code) || UNAVAILABLE_ERRNO.has(e.code) || e.code.startsWith("08"))
  )
    return true;
  if (typeof e.kind === "string" && UNAVAILABLE_KINDS.has(e.kind)) return true;
  if (typeof e.message === "string" && /Connection terminated|Can't reach database server/i.test(e.message))
    return true;
  const adapter = (e.meta as { driverAdapterError?: unknown } | undefined)?.driverAdapterError;
  return isDatabaseUnavailable(adapter, depth + 1) || isDatabaseUnavailable(e.cause, depth + 1);
}
