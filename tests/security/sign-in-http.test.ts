// Sign-in and sessions over HTTP against the running app (server.ts in front):
// sign-in limits keyed by the socket's address (X-Forwarded-For and a forged
// x-sluice-client-address change nothing), no lockout of the right password, X-Forwarded-Host
// not believed, and sessions/tokens ending with a password change or a disabled account.
import { beforeAll, describe, expect, it } from "vitest";
import { changeOwnPassword, setUserDisabled } from "@/lib/control/data/auth/accounts";
import { createAdminToken } from "@/lib/control/data/tokens";
import { LOGIN_RULES } from "@/lib/control/auth/login-limit";
import { anyPlan, makeTenant, uniqueSlug } from "../integration/dashboard/fixtures";
import { loopbackAddress, makeUser, rawCall, signIn, type UserPrincipal } from "./accounts-fixtures";

const slug = uniqueSlug("sec-http");
let tenantId = "";
let operator: UserPrincipal;
const operatorPassword = "operator-password-http";

beforeAll(async () => {
  tenantId = await makeTenant(slug, await anyPlan());
  operator = await makeUser(`${slug}@operator.test`, operatorPassword, [], true);
});

const configAs = (cookie: string, from: string, headers: Record<string, string> = {}) =>
  rawCall("GET", "/api/admin/config", { from, headers: { cookie, ...headers } });

describe("sign-in limits over HTTP", () => {
  // 30 password checks: past 30 s on a loaded machine (the refill below allows for the time)
  it(
    "rotating X-Forwarded-For (and our own address header) no longer evades the per-address limit",
    { timeout: 120_000 },
    async () => {
      const from = loopbackAddress();
      const burst = LOGIN_RULES.perAddress.burst ?? 0;
      const errors: (string | null)[] = [];
      const started = Date.now();
      for (let i = 0; i < burst + 10; i += 1) {
        const outcome = await signIn(`${uniqueSlug("guess")}@xff.test`, "wrong-password", {
          from,
          headers: { "x-forwarded-for": `198.51.100.${i}`, "x-sluice-client-address": `192.0.2.${i}` },
        });
        errors.push(outcome.error);
      }
      // The bucket refills 30 a minute (one per 2 s) while the guesses run.
      const refilled = Math.ceil((Date.now() - started) / 2000);
      expect(errors.slice(0, burst).every((e) => e === "CredentialsSignin")).toBe(true);
      expect(errors.filter((e) => e === "CredentialsSignin").length).toBeLessThanOrEqual(burst + refilled);
      expect(errors.filter((e) => e === "too_many_attempts").length).toBeGreaterThanOrEqual(10 - refilled);
      expect(errors.every((e) => e === "CredentialsSignin" || e === "too_many_attempts")).toBe(true);
    },
  );

  it(
    "the right password still works after many wrong guesses from another address",
    { timeout: 60_000 },
    async () => {
      const email = `${slug}-owner@lockout.test`;
      await makeUser(email, "the-owners-password");
      const attacker = loopbackAddress();
      const errors: (string | null)[] = [];
      for (let i = 0; i < 14; i += 1)
        errors.push((await signIn(email, `guess-${i}`, { from: attacker })).error);
      expect(errors).toContain("too_many_attempts");
      const owner = await signIn(email, "the-owners-password", { from: loopbackAddress() });
      expect(owner.error).toBeNull();
      expect(owner.cookie).toContain("session-token=");
    },
  );
});

describe("sessions and tokens", () => {
  it("X-Forwarded-Host is not believed for the same-origin check by default", async () => {
    const from = loopbackAddress();
    const { cookie } = await signIn(operator.email, operatorPassword, { from });
    if (!cookie) throw new Error("operator could not sign in");
    const put = (headers: Record<string, string>) =>
      rawCall("PUT", "/api/admin/config?dryRun=true", {
        from,
        headers: { cookie, "content-type": "application/json", ...headers },
        body: "{}",
      });
    expect((await put({ origin: "https://evil.example", "x-forwarded-host": "evil.example" })).status).toBe(
      403,
    );
    expect(
      (await put({ origin: new URL(process.env.APP_URL ?? "http://localhost:3100").origin })).status,
    ).toBe(200);
  });

  it("a password change ends the sessions made before it", async () => {
    const email = `${slug}-change@x.test`;
    const user = await makeUser(email, "first-password-1", [{ tenantId, role: "viewer" }], true);
    const from = loopbackAddress();
    const first = await signIn(email, "first-password-1", { from });
    const second = await signIn(email, "first-password-1", { from });
    if (!first.cookie || !second.cookie) throw new Error("sign-in failed");
    expect((await configAs(first.cookie, from)).status).toBe(200);
    await changeOwnPassword(user, { current: "first-password-1", password: "second-password-2" });
    expect((await configAs(first.cookie, from)).status).toBe(401);
    expect((await configAs(second.cookie, from)).status).toBe(401);
    expect((await signIn(email, "second-password-2", { from })).cookie).not.toBeNull();
  });

  it("a disabled account cannot sign in, its session ends and its admin tokens fail", async () => {
    const email = `${slug}-disabled@x.test`;
    const user = await makeUser(email, "disabled-password", [{ tenantId, role: "admin" }]);
    const { token } = await createAdminToken(user, { name: "theirs", role: "admin", tenant: slug });
    const from = loopbackAddress();
    const { cookie } = await signIn(email, "disabled-password", { from });
    if (!cookie) throw new Error("sign-in failed");
    const keys = `/api/admin/tenants/${slug}/keys`;
    expect((await rawCall("GET", keys, { from, headers: { authorization: `Bearer ${token}` } })).status).toBe(
      200,
    );
    expect((await rawCall("GET", keys, { from, headers: { cookie } })).status).toBe(200);

    await setUserDisabled(operator, user.id, true);
    expect((await rawCall("GET", keys, { from, headers: { authorization: `Bearer ${token}` } })).status).toBe(
      401,
    );
    expect((await rawCall("GET", keys, { from, headers: { cookie } })).status).toBe(401);
    expect((await signIn(email, "disabled-password", { from })).error).toBe("CredentialsSignin");
  });
});
