// A token is never worth more than its maker: an admin token acts at most with its maker's
// current role in the tenant, stops when the maker is removed (for good: re-adding the member
// does not revive it), and an operator token ends when its maker is no longer an operator.
// Over HTTP against the running app, with the roles changed through the DAL.
import { beforeAll, describe, expect, it } from "vitest";
import { resolveBearer } from "@/lib/control/data/auth/api-tokens";
import { db } from "@/lib/control/data/db";
import { acceptAsSignedIn, createInvitation } from "@/lib/control/data/invitations";
import { changeMemberRole, removeMember } from "@/lib/control/data/members";
import { listTokens, type TokenRow } from "@/lib/control/data/queries/list-tokens";
import { createAdminToken } from "@/lib/control/data/tokens";
import { call } from "../integration/admin/http";
import { anyPlan, makeTenant, uniqueSlug } from "../integration/dashboard/fixtures";
import { makeUser, type UserPrincipal } from "./accounts-fixtures";

const slug = uniqueSlug("sec-maker");
let tenantId = "";
let owner: UserPrincipal;
let operator: UserPrincipal;

beforeAll(async () => {
  tenantId = await makeTenant(slug, await anyPlan());
  owner = await makeUser(`${slug}-owner@x.test`, "owner-password-1", [{ tenantId, role: "owner" }]);
  operator = await makeUser(`${slug}-op@x.test`, "operator-password", [], true);
});

const newKey = (token: string, name: string) =>
  call("POST", `/api/admin/tenants/${slug}/keys`, { token, body: { name } });
const newAdminToken = (token: string, name: string) =>
  call("POST", "/api/admin/admin-tokens", { token, body: { name, role: "admin", tenant: slug } });

async function tokenRow(id: string): Promise<TokenRow | undefined> {
  return (await listTokens(owner, slug)).find((t) => t.kind === "admin" && t.id === id);
}

async function adminWithToken(label: string): Promise<{ user: UserPrincipal; id: string; token: string }> {
  const user = await makeUser(`${slug}-${label}@x.test`, "member-password", [{ tenantId, role: "admin" }]);
  const made = await createAdminToken(user, { name: `${label} token`, role: "admin", tenant: slug });
  expect((await newKey(made.token, `${label}-before`)).status).toBe(201);
  return { user, ...made };
}

describe("an admin token and its maker's role", () => {
  it("acts with the maker's current role: demoted to viewer, it may no longer change anything", async () => {
    const { user, id, token } = await adminWithToken("demoted");
    await changeMemberRole(owner, slug, { userId: user.id, role: "viewer" });
    expect(await resolveBearer(token)).toMatchObject({ ok: true, principal: { role: "viewer" } });
    expect((await newKey(token, "demoted-after")).status).toBe(403);
    expect((await newAdminToken(token, "demoted second")).status).toBe(403);
    expect((await call("GET", `/api/admin/tenants/${slug}/keys`, { token })).status).toBe(200);
    expect((await tokenRow(id))?.capped).toBe("maker's role is now viewer: acts as viewer");
    // Promoted again, it never exceeds the role written on it.
    await changeMemberRole(owner, slug, { userId: user.id, role: "owner" });
    expect(await resolveBearer(token)).toMatchObject({ ok: true, principal: { role: "admin" } });
    expect((await tokenRow(id))?.capped).toBeNull();
  });

  it("is revoked when the maker is removed, and re-adding the member does not revive it", async () => {
    const { user, id, token } = await adminWithToken("removed");
    await changeMemberRole(owner, slug, { userId: user.id, role: "viewer" });
    await removeMember(owner, slug, user.id);
    expect((await newKey(token, "removed-after")).status).toBe(401);
    expect((await newAdminToken(token, "removed second")).status).toBe(401);
    expect(await tokenRow(id)).toMatchObject({ revokedAt: expect.any(Date), revokedReason: "maker removed" });

    const invitation = await createInvitation(owner, slug, { email: user.email, role: "admin" });
    await acceptAsSignedIn(user, invitation.secret);
    expect((await newKey(token, "readded-after")).status).toBe(401);
    expect(await resolveBearer(token)).toMatchObject({ ok: false, status: 401 });
  });

  it("stops at once when the membership is gone, even before anything revoked it", async () => {
    const { user, id, token } = await adminWithToken("vanished");
    await db().membership.deleteMany({ where: { userId: user.id, tenantId } });
    expect((await newKey(token, "vanished-after")).status).toBe(401);
    expect((await tokenRow(id))?.ineffective).toBe("maker removed");
    // A membership newer than the token is a re-admission: it does not count.
    await db().membership.create({ data: { userId: user.id, tenantId, role: "admin" } });
    expect((await newKey(token, "vanished-readded")).status).toBe(401);
  });

  it("an operator token ends when its maker is no longer an operator", async () => {
    const maker = await makeUser(`${slug}-exop@x.test`, "operator-password", [], true);
    const made = await createAdminToken(maker, { name: "operator token", role: "owner" });
    expect((await call("GET", "/api/admin/config", { token: made.token })).status).toBe(200);
    await db().user.update({ where: { id: maker.id }, data: { isOperator: false } });
    expect((await call("GET", "/api/admin/config", { token: made.token })).status).toBe(401);
    const row = (await listTokens(operator, null)).find((t) => t.id === made.id);
    expect(row?.ineffective).toBe("maker is no longer an operator");
  });
});
