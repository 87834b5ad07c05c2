// Waiting in tests: on a condition, never on a guessed time. A busy machine makes every
// step slower, so a fixed sleep is either too long everywhere or too short there; a wait on
// the condition returns as soon as it holds and fails with what it waited for.

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` every `everyMs` until it holds; throws naming `what` after `timeoutMs`. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
  everyMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await pause(everyMs);
  }
  if (await condition()) return;
  throw new Error(`timed out waiting for ${what}`);
}
