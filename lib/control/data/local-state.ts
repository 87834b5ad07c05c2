import "server-only";
import type { CompiledLimit } from "@/lib/control/config/compile";
import type { RedisClient } from "@/lib/shared/redis/redis";
import { LocalCounter } from "@/lib/check/limiter/local/local-counter";
import { localCodeOf, localCounterKey } from "@/lib/check/limiter/local/local-keys";
import type { Look } from "@/lib/check/limiter/local/local-algorithms";
import type { LimitSpec } from "@/lib/check/limiter/types";
import { scaled } from "@/lib/shared/limit-exactness";

// GET /api/admin/state for local limits (consistency: local): their counters are not in the
// exact script's keys but in the converged hash every server syncs to (lua/local-sync.lua),
// so their state is read from there, as of the servers' last syncs, at Redis' time.

export interface LocalReading {
  remaining: number;
  resetMs: number;
  wouldAllow: boolean;
  retryAfterMs: number | null;
}

/** The reading of a local limit for a check of cost 1; null when the limit is exact. */
export async function readLocalState(
  client: RedisClient,
  limit: CompiledLimit,
  spec: LimitSpec,
): Promise<LocalReading | null> {
  const code = localCodeOf(spec.rule.algorithm);
  if (limit.local === undefined || code === undefined) return null;
  const key = localCounterKey(spec, code);
  const { L, W, B } = scaled(spec.rule);
  const counter = new LocalCounter(key, spec.tenantId, { code, L, W, B }, limit.local.syncEveryMs);
  const [[seconds, micros], [a, b, c]] = await Promise.all([client.time(), client.hmget(key, "a", "b", "c")]);
  if (a !== null && b !== null && c !== null) counter.converge(Number(a), Number(b), Number(c), 0);
  const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  const look: Look = { status: 0, retry: -1, rem0: 0, reset0: 0, rem1: 0, reset1: 0 };
  counter.look(1, now, look);
  return {
    remaining: look.rem0,
    resetMs: look.reset0,
    wouldAllow: look.status === 1,
    retryAfterMs: look.status === 0 ? look.retry : null,
  };
}
