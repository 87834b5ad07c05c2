// Sign-in attempts through Sluice's own limiter: per account and per IP, failures counted
// separately, and closed when Redis cannot answer.
import { afterAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { admitLoginAttempt, clientIp, LOGIN_RULES, recordLoginFailure } from "@/lib/auth/login-limit";
import { uniqueSlug } from "./fixtures";

const holder = globalThis as unknown as { sluiceLoginRedis?: Redis };

afterAll(() => {
  holder.sluiceLoginRedis?.disconnect();
  holder.sluiceLoginRedis = undefined;
});

describe("login limits", () => {
  it("an account gets its burst of attempts, then is refused with a retry time", async () => {
    const email = `${uniqueSlug("acct")}@login.test`;
    const ips = Array.from({ length: 20 }, (_, i) => `198.51.100.${i}`);
    const verdicts = [];
    for (const ip of ips.slice(0, LOGIN_RULES.perAccount.burst ?? 0))
      verdicts.push(await admitLoginAttempt(email, ip));
    expect(verdicts.every((v) => v.ok)).toBe(true);
    const next = await admitLoginAttempt(email, ips[19] ?? "x");
    expect(next).toMatchObject({ ok: false, reason: "rate_limited" });
    // Case and spaces do not make a fresh account.
    expect(await admitLoginAttempt(` ${email.toUpperCase()} `, "198.51.100.200")).toMatchObject({
      ok: false,
    });
  });

  it("one IP is refused after its burst, across many accounts", async () => {
    const ip = `203.0.113.${Math.floor(Math.random() * 250)}-${uniqueSlug("ip")}`;
    let admitted = 0;
    for (let i = 0; i < (LOGIN_RULES.perIp.burst ?? 0) + 3; i += 1) {
      if ((await admitLoginAttempt(`${uniqueSlug("u")}@login.test`, ip)).ok) admitted += 1;
    }
    expect(admitted).toBe(LOGIN_RULES.perIp.burst);
  });

  it("wrong passwords are counted per account until sign-in is refused", async () => {
    const email = `${uniqueSlug("fail")}@login.test`;
    for (let i = 0; i < LOGIN_RULES.failuresPerAccount.limit; i += 1) await recordLoginFailure(email);
    expect(await admitLoginAttempt(email, "192.0.2.1")).toMatchObject({ ok: false, reason: "rate_limited" });
  });

  it("fails closed when Redis cannot be reached", async () => {
    holder.sluiceLoginRedis?.disconnect();
    holder.sluiceLoginRedis = new Redis("redis://127.0.0.1:1", {
      connectTimeout: 200,
      commandTimeout: 200,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
      lazyConnect: true,
    });
    expect(await admitLoginAttempt(`${uniqueSlug("down")}@login.test`, "192.0.2.2")).toMatchObject({
      ok: false,
      reason: "store_unavailable",
    });
    holder.sluiceLoginRedis.disconnect();
    holder.sluiceLoginRedis = undefined;
  });

  it("takes the address the nearest proxy appended", () => {
    expect(clientIp({ "x-forwarded-for": "1.1.1.1, 10.0.0.7" })).toBe("10.0.0.7");
    expect(clientIp({})).toBe("unknown");
  });
});
