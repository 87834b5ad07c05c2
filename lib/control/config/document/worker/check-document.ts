import "server-only";
import { Worker } from "node:worker_threads";
import { checkText, type TextCheck, type TextCheckResult } from "@/lib/control/config/document/check-text";
import { documentWorkerPath } from "./worker-path";
import { workerSlots } from "./worker-slots";

export { DocumentsBusy } from "./worker-slots";

// Documents over a few KiB are parsed and validated in a worker thread: a hostile one costs
// seconds of CPU and hundreds of MB, which on the app's event loop held up every tenant's
// dashboard and admin API, and past the heap cap aborted the process. A worker has its own
// heap cap and a deadline; over either it is ended and the document refused, and the app
// keeps answering. At most two run at once (the machine has two cores and the app
// must keep one); a bounded number more wait their turn, and past that one is refused.

/** Bodies up to this are checked inline: a worker's start costs more than their parse. */
export const INLINE_DOCUMENT_BYTES = 8 * 1024;
/** The worker's V8 old-generation cap: a 2 MiB document of 660,000 values fits in it. */
export const WORKER_HEAP_MB = 384;
/** How long a worker may take (wall time, so a loaded machine counts against it too). */
export const WORKER_DEADLINE_MS = 10_000;

/** What one document may cost its worker. */
export interface WorkerBudget {
  heapMb: number;
  deadlineMs: number;
}

export const MEMBER_BUDGET: WorkerBudget = { heapMb: WORKER_HEAP_MB, deadlineMs: WORKER_DEADLINE_MS };
/**
 * Operators import the whole installation (10,000 tenants is about 13 MB of JSON): a larger
 * heap and more time, still in a worker, so even their document never holds the app.
 */
export const OPERATOR_BUDGET: WorkerBudget = { heapMb: 3_072, deadlineMs: 120_000 };
const MAX_RUNNING = 2;
/** Documents that may wait for a worker; past this one is refused (DocumentsBusy, 429). */
export const MAX_WAITING = 16;

/** The document cost more than its worker may spend: refused, nothing changed. */
export class DocumentRefused extends Error {
  override name = "DocumentRefused";
}

const slots = workerSlots(MAX_RUNNING, MAX_WAITING);

function inWorker(check: TextCheck, budget: WorkerBudget): Promise<TextCheckResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(documentWorkerPath(), {
      workerData: check,
      resourceLimits: {
        maxOldGenerationSizeMb: budget.heapMb,
        maxYoungGenerationSizeMb: 32,
        stackSizeMb: 4,
      },
    });
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      outcome();
      void worker.terminate();
    };
    const deadline = setTimeout(() => {
      settle(() =>
        reject(
          new DocumentRefused(
            `The body took longer than ${budget.deadlineMs / 1000} s to parse and check; split the document.`,
          ),
        ),
      );
    }, budget.deadlineMs);
    worker.once("message", (result: TextCheckResult) => settle(() => resolve(result)));
    worker.once("error", (error: Error & { code?: string }) => {
      const memory = error.code === "ERR_WORKER_OUT_OF_MEMORY";
      if (!memory) console.error("[sluice] the document worker failed:", error);
      const why = memory ? `needs more than ${budget.heapMb} MB to parse and check` : "could not be checked";
      settle(() => reject(new DocumentRefused(`The body ${why}; split the document.`)));
    });
    worker.once("exit", (code) => {
      settle(() =>
        reject(new DocumentRefused(`The body could not be checked (the worker ended with ${code}).`)),
      );
    });
  });
}

/** checkText, in a worker for anything but a small body. */
export async function checkDocument(
  check: TextCheck,
  budget: WorkerBudget = MEMBER_BUDGET,
): Promise<TextCheckResult> {
  if (Buffer.byteLength(check.text) <= INLINE_DOCUMENT_BYTES) return checkText(check);
  const release = await slots.acquire();
  try {
    return await inWorker(check, budget);
  } finally {
    release();
  }
}
