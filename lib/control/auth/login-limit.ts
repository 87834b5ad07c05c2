import "server-only";
import { createRedis, hotPathOptions, type RedisClient } from "@/lib/shared/redis/redis";
import { evaluate } from "@/lib/check/limiter/evaluate";
import type { LimitSpec } from "@/lib/check/limiter/types";
import type { LimitRule } from "@/lib/shared/limit-types";
import { globalSingleton } from "@/lib/shared/global-singleton";

// Sign-in attempts go through Sluice's own limiter (dogfood), straight against Redis, all
// in one hash tag so each script call decides atomically. Refusals are only ever keyed by
// the client address (alone, and with the account): a stranger elsewhere can never lock an
// owner out of their account. Per account, wrong passwords from anywhere only slow its
// sign-ins down, by a delay that grows with them and is capped.
// - attempts per address and per address+account are consumed up front, before scrypt
//   runs, so a flood of parallel guesses cannot slip past a check-then-count race;
// - failures per address+account are counted when a password is wrong (refusing past 10);
// - failures per account (a shadow limit: it counts, never refuses) set the delay.
// Failing closed: if Redis cannot answer, nobody signs in with a password.

const TAG = "login";

const rule = (
  algorithm: LimitRule["algorithm"],
  limit: number,
  windowMs: number,
  burst: number | null,
  mode: LimitRule["mode"] = "enforce",
): LimitRule => ({
  algorithm,
  limit,
  windowMs,
  burst,
  action: "reject",
  maxDelayMs: null,
  mode,
  onStoreFailure: "closed",
});

export const LOGIN_RULES = {
  perAddress: rule("token_bucket", 30, 60_000, 30),
  perAddressAccount: rule("token_bucket", 10, 60_000, 10),
  failuresPerAddressAccount: rule("sliding_window", 10, 15 * 60_000, null),
  failuresPerAccount: rule("sliding_window", 100_000, 15 * 60_000, null, "shadow"),
} as const;

/** Wrong passwords an account takes without delay; each one more doubles it, up to the cap. */
export const DELAY_FREE_FAILURES = 5;
export const DELAY_BASE_MS = 250;
export const DELAY_CAP_MS = 4_000;

export type LoginVerdict =
  | { ok: true; delayMs: number }
  | { ok: false; reason: "rate_limited" | "store_unavailable"; retryAfterMs: number | null };

// The offline queue stays on so the first sign-in after start waits for the connection
// instead of failing; timeouts and zero retries still make a dead Redis fail fast (closed).
const loginRedis = globalSingleton<RedisClient>("sluiceLoginRedis", () =>
  createRedis({ ...hotPathOptions, enableOfflineQueue: true }),
);
const client = (): RedisClient => loginRedis.get();

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

const pair = (address: string, account: string): string => `${address.slice(0, 64)} ${account}`;

const failureSpecs = (account: string, address: string): LimitSpec[] => [
  spec("pair-failures", pair(address, account), LOGIN_RULES.failuresPerAddressAccount),
  spec("account-failures", account, LOGIN_RULES.failuresPerAccount),
];

/** The delay before checking a password of an account that took this many wrong ones. */
export function delayFor(failures: number): number {
  if (failures < DELAY_FREE_FAILURES) return 0;
  return Math.min(DELAY_CAP_MS, DELAY_BASE_MS * 2 ** (failures - DELAY_FREE_FAILURES));
}

/** Before checking a password: counts this attempt; refuses when an address limit is spent. */
export async function admitLoginAttempt(email: string, address: string): Promise<LoginVerdict> {
  const account = accountIdentity(email);
  try {
    const attempts = await evaluate(
      client(),
      [
        spec("address-attempts", address.slice(0, 64), LOGIN_RULES.perAddress),
        spec("pair-attempts", pair(address, account), LOGIN_RULES.perAddressAccount),
      ],
      { cost: 1, dryRun: false },
    );
    if (!attempts.allowed) return { ok: false, reason: "rate_limited", retryAfterMs: attempts.retryAfterMs };
    // Peek only: failures are counted by recordLoginFailure once the password proved wrong.
    const failures = await evaluate(client(), failureSpecs(account, address), { cost: 1, dryRun: true });
    if (!failures.allowed) return { ok: false, reason: "rate_limited", retryAfterMs: failures.retryAfterMs };
    const counter = failures.limits[1];
    // A peek reports what would remain after one more: the count so far is one below that.
    const counted = counter ? Math.max(0, counter.limit - counter.remaining - 1) : 0;
    return { ok: true, delayMs: delayFor(counted) };
  } catch {
    return { ok: false, reason: "store_unavailable", retryAfterMs: null };
  }
}

/** After a wrong password. Errors are swallowed: the up-front check already failed closed. */
export async function recordLoginFailure(email: string, address: string): Promise<void> {
  await evaluate(client(), failureSpecs(accountIdentity(email), address), { cost: 1, dryRun: false }).catch(
    () => undefined,
  );
}

export function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
