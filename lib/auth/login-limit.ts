import "server-only";
import { createRedis, hotPathOptions, type RedisClient } from "@/lib/redis";
import { evaluate } from "@/lib/limiter/evaluate";
import type { LimitSpec } from "@/lib/limiter/types";
import type { LimitRule } from "@/lib/shared/limit-types";

// Sign-in attempts go through Sluice's own limiter (dogfood), straight against Redis.
// Three limits, all in one hash tag so one script call decides them atomically:
// - attempts per IP and per account are consumed up front, before scrypt runs, so a flood
//   of parallel guesses cannot slip past a check-then-count race;
// - failures per account are counted only when a password is wrong, so a long guessing
//   campaign is capped while people who sign in correctly are never locked out by it.
// Failing closed: if Redis cannot answer, nobody signs in with a password.

const TAG = "login";

const rule = (
  algorithm: LimitRule["algorithm"],
  limit: number,
  windowMs: number,
  burst: number | null,
): LimitRule => ({
  algorithm,
  limit,
  windowMs,
  burst,
  action: "reject",
  maxDelayMs: null,
  mode: "enforce",
  onStoreFailure: "closed",
});

export const LOGIN_RULES = {
  perIp: rule("token_bucket", 30, 60_000, 30),
  perAccount: rule("token_bucket", 10, 60_000, 10),
  failuresPerAccount: rule("sliding_window", 10, 15 * 60_000, null),
} as const;

export type LoginVerdict =
  { ok: true } | { ok: false; reason: "rate_limited" | "store_unavailable"; retryAfterMs: number | null };

const holder = globalThis as unknown as { sluiceLoginRedis?: RedisClient };
function client(): RedisClient {
  // The offline queue stays on so the first sign-in after start waits for the connection
  // instead of failing; timeouts and zero retries still make a dead Redis fail fast (closed).
  holder.sluiceLoginRedis ??= createRedis({ ...hotPathOptions, enableOfflineQueue: true });
  return holder.sluiceLoginRedis;
}

const spec = (id: string, identity: string, limitRule: LimitRule): LimitSpec => ({
  id,
  tenantId: TAG,
  identity,
  rule: limitRule,
});

/** Normalized so "Admin@X " and "admin@x" share one counter. */
export function accountIdentity(email: string): string {
  return email.trim().toLowerCase().slice(0, 254);
}

async function decide(specs: LimitSpec[], dryRun: boolean): Promise<LoginVerdict> {
  try {
    const decision = await evaluate(client(), specs, { cost: 1, dryRun });
    return decision.allowed
      ? { ok: true }
      : { ok: false, reason: "rate_limited", retryAfterMs: decision.retryAfterMs };
  } catch {
    return { ok: false, reason: "store_unavailable", retryAfterMs: null };
  }
}

/** Before checking a password: counts this attempt, and refuses when any limit is spent. */
export async function admitLoginAttempt(email: string, ip: string): Promise<LoginVerdict> {
  const account = accountIdentity(email);
  const attempts = await decide(
    [spec("ip-attempts", ip, LOGIN_RULES.perIp), spec("account-attempts", account, LOGIN_RULES.perAccount)],
    false,
  );
  if (!attempts.ok) return attempts;
  // Peek only: failures are counted by recordLoginFailure once the password proved wrong.
  return decide([spec("account-failures", account, LOGIN_RULES.failuresPerAccount)], true);
}

/** After a wrong password. Errors are swallowed: the up-front check already failed closed. */
export async function recordLoginFailure(email: string): Promise<void> {
  await decide([spec("account-failures", accountIdentity(email), LOGIN_RULES.failuresPerAccount)], false);
}

/**
 * The client address for per-IP counting: the last X-Forwarded-For entry (the one our own
 * server or the nearest proxy appended; entries before it are the client's to invent).
 */
export function clientIp(headers: Record<string, string | string[] | undefined> | undefined): string {
  const raw = headers?.["x-forwarded-for"] ?? headers?.["x-real-ip"];
  const value = Array.isArray(raw) ? raw.join(",") : (raw ?? "");
  const last = value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .pop();
  return (last ?? "unknown").slice(0, 64);
}
