// A background task run now and then every `everyMs`: one run at a time (a slow run is not
// overlapped by the next), and each distinct failure logged once (a store that stays away
// does not flood the log); it tries again at the next tick.

export interface PeriodicTask {
  stop(): void;
}

export function startPeriodicTask(name: string, everyMs: number, run: () => Promise<unknown>): PeriodicTask {
  let running = false;
  let lastError = "";
  const tick = async (): Promise<void> => {
    if (running) return;
    running = true;
    try {
      await run();
      lastError = "";
    } catch (error) {
      const message = String(error);
      if (message !== lastError) console.warn(`[sluice] ${name}: ${message}`);
      lastError = message;
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), everyMs);
  timer.unref();
  void tick();
  return { stop: () => clearInterval(timer) };
}
