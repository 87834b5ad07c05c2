import "server-only";
import { isOperator, type Principal } from "@/lib/shared/principal";
import { documentBudget } from "@/lib/control/config/document/worker/document-budget";

// Each principal (a user, a token) checks one document at a time: an import or preview is
// the costly request of the admin plane, and one credential looping them in parallel would
// hold every worker while other tenants' imports wait.

/** Seconds a refused caller is told to wait: a document's check takes a few at most. */
export const IMPORT_RETRY_AFTER_SECONDS = 2;

/** Another import or preview of the same principal is running: refused (409, Retry-After). */
export class ImportInProgress extends Error {
  override name = "ImportInProgress";
  constructor(
    message = "Another import or preview of this account or token is still running; retry when it has finished.",
    readonly retryAfterSeconds: number = IMPORT_RETRY_AFTER_SECONDS,
  ) {
    super(message);
  }
}

/** The principal's documents used its share of the app's time (document-budget.ts): 429, Retry-After. */
export class DocumentBudgetSpent extends ImportInProgress {
  override name = "DocumentBudgetSpent";
  constructor(retryAfterSeconds: number) {
    super(
      `This account or token has used its share of document processing time; retry in ${retryAfterSeconds} s.`,
      retryAfterSeconds,
    );
  }
}

const busy = new Set<string>();

// A refusal is answered after a pause, before the body is read: a loop that ignores
// Retry-After would otherwise upload its next 2 MB document the moment the 409 arrives,
// and those uploads and answers take the app's CPU from every other tenant. Held, the upload
// waits on the socket instead. Bounded, so held refusals cannot pile up without end.
const REFUSAL_HOLD_MS = 250;
const MAX_HELD = 256;
let held = 0;

async function refuse(error: ImportInProgress): Promise<never> {
  if (held < MAX_HELD) {
    held++;
    try {
      await new Promise((resolve) => setTimeout(resolve, REFUSAL_HOLD_MS));
    } finally {
      held--;
    }
  }
  throw error;
}

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

/**
 * Runs `work` unless the principal already has one running (ImportInProgress) or, below
 * operator, has spent its document time (DocumentBudgetSpent, document-budget.ts), which
 * `work`'s duration is charged to. Operators are trusted with the whole installation: the
 * budget keeps tenants from each other.
 */
export async function oneAtATime<T>(principal: Principal, work: () => Promise<T>): Promise<T> {
  const key = principalKey(principal);
  if (busy.has(key)) return refuse(new ImportInProgress());
  const budgeted = !isOperator(principal);
  const wait = budgeted ? documentBudget.waitSeconds(key, performance.now()) : 0;
  if (wait > 0) return refuse(new DocumentBudgetSpent(wait));
  busy.add(key);
  const started = performance.now();
  try {
    return await work();
  } finally {
    busy.delete(key);
    if (budgeted) documentBudget.charge(key, performance.now() - started, performance.now());
  }
}
