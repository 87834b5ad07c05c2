import "server-only";

// SIGTERM (a deploy, `npm run stop`) or SIGINT: a graceful stop, then exit; whatever is
// still running at the deadline is cut short, so a process always exits within 5 s.

const DEADLINE_MS = 4_500;
/** The primary kills a check worker still running this long after the signal. */
export const WORKER_KILL_MS = DEADLINE_MS - 100;
/** A front's last usage counts are written by then, before a worker can be killed. */
export const USAGE_FLUSHED_BY_MS = WORKER_KILL_MS - 200;

export function onShutdown(stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = (): void => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(0), DEADLINE_MS).unref();
    void stop()
      .catch((error: unknown) => console.error(`[sluice] shutdown: ${String(error)}`))
      .finally(() => process.exit(0));
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}
