// The document worker's entry (bundled to .next/sluice/document-worker.mjs by
// scripts/build-server.mjs): one check per worker, its answer posted back, then it exits.
// A worker that runs out of its heap or time is ended by the app, which stays up.
import { parentPort, workerData } from "node:worker_threads";
import { checkText, type TextCheck } from "@/lib/config/document/check-text";

parentPort?.postMessage(checkText(workerData as TextCheck));
