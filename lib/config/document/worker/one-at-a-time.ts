import "server-only";
import type { Principal } from "@/lib/auth/principal";

// Each principal (a user, a token) checks one document at a time: an import or preview is
// the costly request of the admin plane, and one credential looping them in parallel would
// hold every worker while other tenants' imports wait.

/** Seconds a refused caller is told to wait: a document's check takes a few at most. */
export const IMPORT_RETRY_AFTER_SECONDS = 2;

/** Another import or preview of the same principal is running: refused (409, Retry-After). */
export class ImportInProgress extends Error {
  override name = "ImportInProgress";
  readonly retryAfterSeconds = IMPORT_RETRY_AFTER_SECONDS;
  constructor(
    message = "Another import or preview of this account or token is still running; retry when it has finished.",
  ) {
    super(message);
  }
}

const busy = new Set<string>();

function principalKey(principal: Principal): string {
  switch (principal.kind) {
    case "bootstrap":
      return "bootstrap";
    case "system":
      return `system:${principal.label}`;
    default:
      return `${principal.kind}:${principal.id}`;
  }
}

/** Runs `work` unless the principal already has one running; then throws ImportInProgress. */
export async function oneAtATime<T>(principal: Principal, work: () => Promise<T>): Promise<T> {
  const key = principalKey(principal);
  if (busy.has(key)) throw new ImportInProgress();
  busy.add(key);
  try {
    return await work();
  } finally {
    busy.delete(key);
  }
}
