// Accounts: nobody could change a password, and a disabled account's tokens
// kept working. Now: a user changes their own password (the current one required), which
// ends their other sessions; an operator disables accounts (sign-in, sessions and the
// admin tokens the account made all stop) and issues one-time reset links.
import { beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "@/lib/shared/password";
import {
  changeOwnPassword,
  createResetLink,
  listUsers,
  redeemResetLink,
  setUserDisabled,
  viewResetLink,
} from "@/lib/control/data/auth/accounts";
import { resolveBearer } from "@/lib/control/data/auth/api-tokens";
import { checkCredentials, loadUserPrincipal, sessionVersionOf } from "@/lib/control/data/auth/users";
import { db } from "@/lib/control/data/db";
import { ConflictError, NotFoundError } from "@/lib/control/errors/errors";
import { createAdminToken } from "@/lib/control/data/tokens";
import { anyPlan, makeTenant, uniqueSlug } from "../integration/dashboard/fixtures";
import { makeUser, type UserPrincipal } from "./accounts-fixtures";

const slug = uniqueSlug("sec-acct");
let tenantId = "";
let operator: UserPrincipal;

beforeAll(async () => {
  tenantId = await makeTenant(slug, await anyPlan());
  operator = await makeUser(`${slug}@operator.test`, "operator-password", [], true);
});

describe("changing one's own password", () => {
  it("needs the current password; a wrong one changes nothing", async () => {
    const user = await makeUser(`${slug}-c1@x.test`, "first-password-1");
    const before = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(
      await changeOwnPassword(user, { current: "not-it-at-all", password: "second-password-2" }),
    ).toEqual({
      ok: false,
    });
    const after = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(after.passwordHash).toBe(before.passwordHash);
    expect(after.sessionVersion).toBe(before.sessionVersion);
    await expect(changeOwnPassword(user, { current: "first-password-1", password: "short" })).rejects.toThrow(
      /12 characters/,
    );
  });

  it("ends the sessions made before it (their version no longer matches)", async () => {
    const user = await makeUser(`${slug}-c2@x.test`, "first-password-1");
    const old = await sessionVersionOf(user.id);
    expect(old).toBe(0);
    expect(await loadUserPrincipal(user.id, 0)).not.toBeNull();
    const outcome = await changeOwnPassword(user, {
      current: "first-password-1",
      password: "second-password-2",
    });
    expect(outcome).toEqual({ ok: true, sessionVersion: 1 });
    expect(await loadUserPrincipal(user.id, 0)).toBeNull();
    expect(await loadUserPrincipal(user.id, 1)).not.toBeNull();
    expect(await checkCredentials(user.email, "first-password-1")).toBeNull();
    expect(await checkCredentials(user.email, "second-password-2")).toBe(user.id);
  });
});

describe("disabling an account", () => {
  it("stops its sign-in, its sessions and the admin tokens it made; enabling brings the tokens back", async () => {
    const user = await makeUser(`${slug}-d@x.test`, "disable-me-please", [{ tenantId, role: "admin" }]);
    const made = await createAdminToken(user, { name: "mine", role: "admin", tenant: slug });
    // ...and a token made with that token acts for the same user.
    const tokenPrincipal = await resolveBearer(made.token);
    if (!tokenPrincipal.ok) throw new Error("token refused");
    const chained = await createAdminToken(tokenPrincipal.principal, {
      name: "chained",
      role: "viewer",
      tenant: slug,
    });
    expect((await resolveBearer(chained.token)).ok).toBe(true);

    await setUserDisabled(operator, user.id, true);
    expect(await checkCredentials(user.email, "disable-me-please")).toBeNull();
    expect(await loadUserPrincipal(user.id, 0)).toBeNull();
    expect(await loadUserPrincipal(user.id, 1)).toBeNull();
    expect(await resolveBearer(made.token)).toMatchObject({ ok: false, status: 401 });
    expect(await resolveBearer(chained.token)).toMatchObject({ ok: false, status: 401 });

    await setUserDisabled(operator, user.id, false);
    expect((await resolveBearer(made.token)).ok).toBe(true);
    expect(await checkCredentials(user.email, "disable-me-please")).toBe(user.id);
  });

  it("is for operators only, and an operator cannot disable themselves", async () => {
    const member = await makeUser(`${slug}-m@x.test`, "member-password", [{ tenantId, role: "owner" }]);
    const other = await makeUser(`${slug}-o@x.test`, "other-password!");
    await expect(setUserDisabled(member, other.id, true)).rejects.toBeInstanceOf(NotFoundError);
    await expect(listUsers(member)).rejects.toBeInstanceOf(NotFoundError);
    await expect(createResetLink(member, other.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(setUserDisabled(operator, operator.id, true)).rejects.toBeInstanceOf(ConflictError);
    expect((await db().user.findUniqueOrThrow({ where: { id: other.id } })).disabledAt).toBeNull();
  });
});

describe("a reset link", () => {
  it("lets the owner set a password once, ends every session, and never shows a password", async () => {
    const user = await makeUser(`${slug}-r@x.test`, "forgotten-password");
    const link = await createResetLink(operator, user.id);
    expect(Object.keys(link).sort()).toEqual(["expiresAt", "secret"]);
    expect(link.secret).toMatch(/^rst_[A-Za-z0-9_-]{32}$/);
    const row = await db().passwordReset.findFirstOrThrow({ where: { userId: user.id } });
    expect(JSON.stringify(row)).not.toContain(link.secret.slice(4));
    expect(await viewResetLink(link.secret)).toEqual({ email: user.email });

    await redeemResetLink(link.secret, { password: "a-brand-new-password" });
    const after = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(await verifyPassword("a-brand-new-password", after.passwordHash)).toBe(true);
    expect(await loadUserPrincipal(user.id, 0)).toBeNull();
    await expect(redeemResetLink(link.secret, { password: "a-third-password!" })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it("is replaced by a newer one and refused once expired", async () => {
    const user = await makeUser(`${slug}-r2@x.test`, "forgotten-password");
    const first = await createResetLink(operator, user.id);
    const second = await createResetLink(operator, user.id);
    expect(await viewResetLink(first.secret)).toBeNull();
    await expect(redeemResetLink(first.secret, { password: "a-brand-new-password" })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await db().passwordReset.updateMany({
      where: { userId: user.id },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    await expect(redeemResetLink(second.secret, { password: "a-brand-new-password" })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(await checkCredentials(user.email, "forgotten-password")).toBe(user.id);
  });
});
