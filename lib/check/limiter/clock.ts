import "server-only";

// Test-only time control. lua/check.lua takes a "now" override (ARGV[3]) so tests can drive
// a virtual clock; production must never send one. The override reaches the script only
// through evaluate()'s separate `options` argument, and only from an object carrying the
// registered symbol below. Symbols never come out of JSON.parse, zod, headers or query
// strings, so no HTTP input can produce it, and no code under lib/ or app/ creates one: the
// only factory is tests/integration/limiter/virtual-clock.ts. A wrong or absent clock means
// Redis TIME.

export const VIRTUAL_CLOCK = Symbol.for("sluice.limiter.virtual-clock");

/** A virtual clock as tests build it: `nowMs()` is the time the script will use. */
export interface VirtualClock {
  readonly [VIRTUAL_CLOCK]: true;
  nowMs(): number;
}

export interface EvaluateOptions {
  clock?: VirtualClock;
}

/** The ARGV[3] value: the virtual time in ms, or -1 for Redis TIME. */
export function nowOverride(options: EvaluateOptions | undefined): number {
  const clock = options?.clock;
  if (!clock || clock[VIRTUAL_CLOCK] !== true) return -1;
  const now = clock.nowMs();
  if (!Number.isSafeInteger(now) || now < 0) throw new RangeError(`virtual clock: bad time ${now}`);
  return now;
}
