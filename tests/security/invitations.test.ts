// Joining a tenant. Adding a member used to make the account itself
// and show its first password to the tenant admin, who could then sign in as that person
// anywhere they were later added. Now an invitation is a one-time link; only whoever opens
// it acts, setting their own password or, signed in as the invited email, accepting.
import { beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "@/lib/shared/secrets";
import { checkCredentials } from "@/lib/control/data/auth/users";
import { db } from "@/lib/control/data/db";
import { ForbiddenError, NotFoundError } from "@/lib/control/errors/errors";
import {
  acceptAsNewAccount,
  acceptAsSignedIn,
  createInvitation,
  listInvitations,
  revokeInvitation,
  viewInvitation,
} from "@/lib/control/data/invitations";
import { listApiKeys } from "@/lib/control/data/api-keys";
import { anyPlan, makeTenant, uniqueSlug } from "../integration/dashboard/fixtures";
import { makeUser, type UserPrincipal } from "./accounts-fixtures";

const a = uniqueSlug("sec-inv-a");
const b = uniqueSlug("sec-inv-b");
let aId = "";
let bId = "";
let adminA: UserPrincipal;
let adminB: UserPrincipal;
const password = "the-invitees-own-password";

beforeAll(async () => {
  const plan = await anyPlan();
  aId = await makeTenant(a, plan);
  bId = await makeTenant(b, plan);
  adminA = await makeUser(`${a}@admin.test`, "admin-a-password!", [{ tenantId: aId, role: "admin" }]);
  adminB = await makeUser(`${b}@owner.test`, "owner-b-password!", [{ tenantId: bId, role: "owner" }]);
});

describe("adding a member", () => {
  it("answers the same whether or not an account has the email, with no password, and makes no account", async () => {
    const existing = await makeUser(`${a}-exists@x.test`, "some-password-123");
    const fresh = `${a}-fresh@x.test`;
    const toExisting = await createInvitation(adminA, a, { email: existing.email, role: "viewer" });
    const toFresh = await createInvitation(adminA, a, { email: fresh, role: "viewer" });
    const shape = (o: object) =>
      Object.entries(o)
        .map(([k, v]) => `${k}:${v instanceof Date ? "date" : typeof v}`)
        .sort();
    expect(shape(toExisting)).toEqual(shape(toFresh));
    expect(shape(toFresh)).toEqual(["expiresAt:date", "id:string", "secret:string"]);
    expect(toFresh.secret).toMatch(/^inv_[A-Za-z0-9_-]{32}$/);
    expect(JSON.stringify(toFresh).toLowerCase()).not.toContain("password");
    expect(await db().user.findUnique({ where: { email: fresh } })).toBeNull();
  });

  it("stores only the SHA-256 of the link's secret", async () => {
    const made = await createInvitation(adminA, a, { email: `${a}-hash@x.test`, role: "editor" });
    const row = await db().invitation.findUniqueOrThrow({ where: { id: made.id } });
    expect(row.hash).toBe(sha256Hex(made.secret));
    expect(JSON.stringify(row)).not.toContain(made.secret.slice(4));
    expect(row.expiresAt.getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
  });

  it("an admin cannot invite above their own role; an editor cannot invite at all", async () => {
    await expect(
      createInvitation(adminA, a, { email: `${a}-o@x.test`, role: "owner" }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    const editor = await makeUser(`${a}-editor@x.test`, "editor-password-1", [
      { tenantId: aId, role: "editor" },
    ]);
    await expect(
      createInvitation(editor, a, { email: `${a}-v@x.test`, role: "viewer" }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      createInvitation(adminA, a, { email: `${a}-ad@x.test`, role: "admin" }),
    ).resolves.toBeTruthy();
  });
});

describe("no cross-tenant takeover through an invitation", () => {
  it("A's admin cannot sign in as a person B later adds, nor accept B's invitation, nor reach B", async () => {
    const email = `${uniqueSlug("shared")}@person.test`;
    // A invites the person; the person sets their own password.
    const fromA = await createInvitation(adminA, a, { email, role: "viewer" });
    await acceptAsNewAccount(fromA.secret, { name: "Person", password });
    const before = await db().user.findUniqueOrThrow({ where: { email } });
    // B adds the same email later: A's admin holds no password and gets nothing from it.
    const fromB = await createInvitation(adminB, b, { email, role: "admin" });
    // A's admin, signed in as themselves, cannot accept an invitation made for another email...
    await expect(acceptAsSignedIn(adminA, fromB.secret)).rejects.toBeInstanceOf(ForbiddenError);
    // ...nor use the link to (re)set the existing account's password.
    await expect(
      acceptAsNewAccount(fromB.secret, { name: "x", password: "attacker-password" }),
    ).rejects.toBeInstanceOf(NotFoundError);
    const after = await db().user.findUniqueOrThrow({ where: { email } });
    expect(after.passwordHash).toBe(before.passwordHash);
    expect(await checkCredentials(email, "attacker-password")).toBeNull();
    await expect(listApiKeys(adminA, b)).rejects.toBeInstanceOf(NotFoundError);
    // The person, signed in as that email, accepts B's invitation.
    const person = await (await import("@/lib/control/data/auth/users")).loadUserPrincipal(after.id);
    if (!person) throw new Error("person vanished");
    await expect(acceptAsSignedIn(person, fromB.secret)).resolves.toEqual({ tenantSlug: b });
    const roles = await db().membership.findMany({
      where: { userId: after.id },
      select: { tenantId: true, role: true },
    });
    expect(roles.sort((x, y) => x.role.localeCompare(y.role))).toEqual([
      { tenantId: bId, role: "admin" },
      { tenantId: aId, role: "viewer" },
    ]);
  });
});

describe("no account-existence oracle", () => {
  it("creating an account for an email that has one fails exactly as a spent link does, and the link stays usable", async () => {
    const existing = await makeUser(`${a}-oracle@x.test`, "oracle-password-123");
    const toExisting = await createInvitation(adminA, a, { email: existing.email, role: "viewer" });
    const spent = await createInvitation(adminA, a, { email: `${a}-spent@x.test`, role: "viewer" });
    await acceptAsNewAccount(spent.secret, { name: "Spent", password });
    const failure = async (secret: string) => {
      const error: unknown = await acceptAsNewAccount(secret, { name: "x", password }).then(
        () => null,
        (e: unknown) => e,
      );
      if (!(error instanceof Error)) throw new Error("expected a failure");
      return { name: error.name, message: error.message, keys: Object.keys(error).sort() };
    };
    const forExisting = await failure(toExisting.secret);
    expect(forExisting).toEqual(await failure(spent.secret));
    expect(forExisting.message).not.toContain(existing.email);
    expect(forExisting.message).not.toMatch(/already exists/i);
    // Nothing changed: the account keeps its password, and the person can still accept.
    expect(await checkCredentials(existing.email, password)).toBeNull();
    expect(await viewInvitation(toExisting.secret)).not.toBeNull();
    await expect(acceptAsSignedIn(existing, toExisting.secret)).resolves.toEqual({ tenantSlug: a });
  });
});

describe("an invitation link", () => {
  it("works once, even when used twice at the same moment", async () => {
    const made = await createInvitation(adminA, a, { email: `${a}-once@x.test`, role: "viewer" });
    const results = await Promise.allSettled([
      acceptAsNewAccount(made.secret, { name: "One", password }),
      acceptAsNewAccount(made.secret, { name: "Two", password }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    await expect(acceptAsNewAccount(made.secret, { name: "Three", password })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(await viewInvitation(made.secret)).toBeNull();
  });

  it("is refused once expired", async () => {
    const made = await createInvitation(adminA, a, { email: `${a}-old@x.test`, role: "viewer" });
    await db().invitation.update({
      where: { id: made.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await viewInvitation(made.secret)).toBeNull();
    await expect(acceptAsNewAccount(made.secret, { name: "Late", password })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(await db().user.findUnique({ where: { email: `${a}-old@x.test` } })).toBeNull();
  });

  it("is refused once revoked, and only the tenant's admins see and revoke it", async () => {
    const made = await createInvitation(adminA, a, { email: `${a}-rev@x.test`, role: "viewer" });
    expect((await listInvitations(adminA, a)).map((i) => i.id)).toContain(made.id);
    await expect(revokeInvitation(adminB, a, made.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(revokeInvitation(adminB, b, made.id)).rejects.toBeInstanceOf(NotFoundError);
    await revokeInvitation(adminA, a, made.id);
    expect((await listInvitations(adminA, a)).map((i) => i.id)).not.toContain(made.id);
    await expect(acceptAsNewAccount(made.secret, { name: "R", password })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it("for email X cannot be accepted by account Y, and Y gains nothing", async () => {
    const y = await makeUser(`${a}-y@x.test`, "y-password-12345");
    const made = await createInvitation(adminA, a, { email: `${a}-x@x.test`, role: "admin" });
    await expect(acceptAsSignedIn(y, made.secret)).rejects.toBeInstanceOf(ForbiddenError);
    expect(await db().membership.count({ where: { userId: y.id } })).toBe(0);
    expect(await viewInvitation(made.secret)).not.toBeNull();
  });

  it("refuses a short password and a mistyped or foreign secret, changing nothing", async () => {
    const made = await createInvitation(adminA, a, { email: `${a}-short@x.test`, role: "viewer" });
    await expect(acceptAsNewAccount(made.secret, { name: "S", password: "short" })).rejects.toThrow(
      /12 characters/,
    );
    await expect(
      acceptAsNewAccount(`${made.secret.slice(0, -1)}${made.secret.endsWith("A") ? "B" : "A"}`, {
        name: "S",
        password,
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      acceptAsNewAccount(made.secret.replace("inv_", "rst_"), { name: "S", password }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(await viewInvitation(made.secret)).not.toBeNull();
  });
});
