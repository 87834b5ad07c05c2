import "server-only";
import { ImportInProgress } from "./one-at-a-time";

// Turns at the document workers: a few run at once, a bounded number wait in order, and
// past that a document is refused at once instead of queueing without end (each waiting
// one holds its text, up to 2 MiB, and waits behind every one before it).

/**
 * Every worker is busy and the queue is full: refused (429 on the admin API, Retry-After),
 * nothing changed. An ImportInProgress, so every caller that reports that one reports this.
 */
export class DocumentsBusy extends ImportInProgress {
  override name = "DocumentsBusy";
  constructor() {
    super("Too many documents are being checked right now; retry in a few seconds.");
  }
}

export interface WorkerSlots {
  /** waits for a turn (throws DocumentsBusy when the queue is full); call the result when done */
  acquire(): Promise<() => void>;
  /** running and waiting now */
  readonly load: { running: number; waiting: number };
}

export function workerSlots(maxRunning: number, maxWaiting: number): WorkerSlots {
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    async acquire() {
      if (running >= maxRunning) {
        if (waiting.length >= maxWaiting) throw new DocumentsBusy();
        // the releasing turn hands its place over: running stays counted
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        running++;
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const next = waiting.shift();
        if (next) next();
        else running--;
      };
    },
    get load() {
      return { running, waiting: waiting.length };
    },
  };
}
