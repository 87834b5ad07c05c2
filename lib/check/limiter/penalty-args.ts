import type { Penalty } from "@/lib/shared/limit-types";

// How a limit's penalty travels to lua/run-check.lua: appended to the rule's ENTRY value
// (its R_PEN slot), so a rule without a penalty sends and costs exactly what it did. The
// block itself is an entry of the limit's owner key named blockEntryOf(entry).

/** The ENTRY value of a limit: its entry, then its penalty when it has one. */
export function entryWithPenalty(entry: string, penalty: Penalty | undefined): string {
  if (penalty === undefined) return entry;
  const grow = Math.round(penalty.grow * 100);
  return `${entry}:${penalty.blockMs}:${grow}:${penalty.maxMs}:${penalty.windowMs}`;
}

/** The owner-key entry holding a limit's block: '!' is no base64url character, so it names no counter. */
export function blockEntryOf(entry: string): string {
  return `!${entry.slice(1)}`;
}

/**
 * The next block's length (the Lua's penalize): blockMs, or when the previous block (of
 * `length`, set at `set`) was set less than windowMs before `now`, length x grow rounded
 * down, at most maxMs.
 */
export function nextBlockMs(
  penalty: Penalty,
  previous: { length: number; set: number } | null,
  now: number,
): number {
  if (previous === null || now - previous.set >= penalty.windowMs) return penalty.blockMs;
  const grown = Math.floor((previous.length * Math.round(penalty.grow * 100)) / 100);
  return Math.min(penalty.maxMs, grown);
}
