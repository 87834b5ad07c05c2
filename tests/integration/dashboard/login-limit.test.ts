// Sign-in attempts through Sluice's own limiter: refusals per client address and per
// address+account only, per account a capped, growing delay; closed when Redis cannot answer.
import { afterAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import {
  admitLoginAttempt,
  DELAY_CAP_MS,
  delayFor,
  LOGIN_RULES,
  recordLoginFailure,
} from "@/lib/control/auth/login-limit";
import { globalSlot } from "@/lib/shared/global-singleton";
import { uniqueSlug } from "./fixtures";

// the sign-in limiter's own client (login-limit.ts), swapped here for one that cannot connect
const loginRedis = globalSlot<Redis>("sluiceLoginRedis");
const address = () => `198.51.${Math.floor(Math.random() * 250)}.${uniqueSlug("a")}`;

afterAll(() => {
  loginRedis.peek()?.disconnect();
  loginRedis.set(undefined);
});

describe("login limits", () => {
  it("one address and account gets its burst of attempts, then is refused with a retry time", async () => {
    const email = `${uniqueSlug("acct")}@login.test`;
    const from = address();
    const verdicts = [];
    for (let i = 0; i < (LOGIN_RULES.perAddressAccount.burst ?? 0); i += 1)
      verdicts.push(await admitLoginAttempt(email, from));
    expect(verdicts.every((v) => v.ok)).toBe(true);
    expect(await admitLoginAttempt(email, from)).toMatchObject({ ok: false, reason: "rate_limited" });
    // Case and spaces do not make a fresh account...
    expect(await admitLoginAttempt(` ${email.toUpperCase()} `, from)).toMatchObject({ ok: false });
    // ...but another address is not refused for it.
    expect(await admitLoginAttempt(email, address())).toMatchObject({ ok: true });
  });

  it("one address is refused after its burst, across many accounts", async () => {
    const from = address();
    let admitted = 0;
    for (let i = 0; i < (LOGIN_RULES.perAddress.burst ?? 0) + 3; i += 1) {
      if ((await admitLoginAttempt(`${uniqueSlug("u")}@login.test`, from)).ok) admitted += 1;
    }
    expect(admitted).toBe(LOGIN_RULES.perAddress.burst);
  });

  it("wrong passwords from one address refuse that address for that account", async () => {
    const email = `${uniqueSlug("fail")}@login.test`;
    const from = address();
    for (let i = 0; i < LOGIN_RULES.failuresPerAddressAccount.limit; i += 1)
      await recordLoginFailure(email, from);
    expect(await admitLoginAttempt(email, from)).toMatchObject({ ok: false, reason: "rate_limited" });
  });

  it("the delay grows with failures and is capped", () => {
    expect(delayFor(0)).toBe(0);
    expect(delayFor(4)).toBe(0);
    expect(delayFor(5)).toBeGreaterThan(0);
    expect(delayFor(7)).toBeGreaterThan(delayFor(6));
    expect(delayFor(10_000)).toBe(DELAY_CAP_MS);
  });

  it("fails closed when Redis cannot be reached", async () => {
    loginRedis.peek()?.disconnect();
    const unreachable = new Redis("redis://127.0.0.1:1", {
      connectTimeout: 200,
      commandTimeout: 200,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
      lazyConnect: true,
    });
    loginRedis.set(unreachable);
    expect(await admitLoginAttempt(`${uniqueSlug("down")}@login.test`, "192.0.2.2")).toMatchObject({
      ok: false,
      reason: "store_unavailable",
    });
    unreachable.disconnect();
    loginRedis.set(undefined);
  });
});
