import "server-only";
import { scriptOf } from "@/lib/shared/redis/lua-files";
import type { Script } from "@/lib/shared/redis/script-client";
import type { LocalCounter } from "@/lib/check/limiter/local/local-counter";
import { parseReply } from "@/lib/check/limiter/script";

// lua/local-sync.lua: its text and SHA (loaded by the check path's clients with the other
// scripts, sent as EVALSHA, as EVAL again after NOSCRIPT), its arguments and its reply.

export const localSyncScript: () => Script = scriptOf("local-sync.lua");

/** KEYS and ARGV for counters of one tenant; their increments move to `sent`. */
export function syncCall(counters: readonly LocalCounter[]): { keys: string[]; args: number[] } {
  const keys: string[] = [];
  const args: number[] = [];
  for (const counter of counters) {
    const inc = counter.takeIncrements();
    const { code, L, W } = counter.rule;
    keys.push(counter.key);
    args.push(code, L, W, inc.a, inc.b, inc.c);
  }
  return { keys, args };
}

/** Applies the converged states; returns Redis' time (ms). Throws on a reply that does not fit. */
export function applySyncReply(counters: readonly LocalCounter[], raw: unknown, localNow: number): number {
  const reply = parseReply(raw);
  if (reply.length !== 1 + 3 * counters.length) throw new Error("local sync: reply of the wrong length");
  counters.forEach((counter, i) => {
    const at = 1 + 3 * i;
    counter.converge(reply[at] as number, reply[at + 1] as number, reply[at + 2] as number, localNow);
  });
  return reply[0] as number;
}
