// The document worker's entry (bundled to .next/sluice/document-worker.mjs by
// scripts/build-server.mjs): one check per worker, its answer posted back, then it exits.
// A worker that runs out of its heap or time is ended by the app, which stays up.
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { checkText, type TextCheck } from "@/lib/control/config/document/check-text";

/** The worker thread's nice value: above the app's own thread (0), which serves everyone. */
export const DOCUMENT_WORKER_NICE = 10;

// On Linux the nice value is a thread's own: this lowers this worker's thread only. A
// document then takes the CPU the app's event loop leaves, instead of a core from under
// other tenants' requests while one editor loops documents.
try {
  setPriority(DOCUMENT_WORKER_NICE);
} catch {
  // a platform that refuses it: the worker runs at the app's priority
}

parentPort?.postMessage(checkText(workerData as TextCheck));
