// The isolation table: a member of tenant A (as owner, the strongest tenant role) calling
// every dashboard page query and server-action DAL function with tenant B's slug or ids
// gets NotFoundError, exactly as for a tenant that does not exist, and B is unchanged.
import { beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/shared/principal";
import { createApiKey, listApiKeys, revokeApiKey } from "@/lib/control/data/api-keys";
import { createAdminToken, createServiceToken } from "@/lib/control/data/tokens";
import { NotFoundError } from "@/lib/control/errors/errors";
import { changeMemberRole, listMembers, removeMember } from "@/lib/control/data/members";
import { createInvitation, listInvitations, revokeInvitation } from "@/lib/control/data/invitations";
import { tenantDetail } from "@/lib/control/data/queries/tenant-detail";
import { listTokens } from "@/lib/control/data/queries/list-tokens";
import { listAuditEntries } from "@/lib/control/data/queries/audit-entries";
import { exportDocument } from "@/lib/control/data/queries/config-yaml";
import { saveLimit } from "@/lib/control/edits/save-limit";
import { addTenantRoute, removeTenantRoute } from "@/lib/control/edits/routes";
import { updateTenant } from "@/lib/control/data/edits/tenants";
import { revokeToken } from "@/lib/control/data/edits/revoke-token";
import { applyImport, previewImport } from "@/lib/control/data/edits/import-yaml";
import { db } from "@/lib/control/data/db";
import { anyPlan, makeMember, makeTenant, system, uniqueSlug } from "./fixtures";

const a = uniqueSlug("iso-a");
const b = uniqueSlug("iso-b");
let member: Principal;
let bMemberId = "";
let bServiceToken = "";
let bAdminToken = "";
let plan = "";

beforeAll(async () => {
  plan = await anyPlan();
  const aId = await makeTenant(a, plan);
  const bId = await makeTenant(b, plan);
  member = await makeMember(`${a}@owner.test`, aId, "owner");
  bMemberId = (await makeMember(`${b}@viewer.test`, bId, "viewer")).id;
  bServiceToken = (await createServiceToken(system, { name: "b-only", tenants: [b] })).id;
  bAdminToken = (await createAdminToken(system, { name: "b-admin", role: "admin", tenant: b })).id;
});

const limit = {
  name: "sneak",
  by: "tenant" as const,
  algorithm: "fixed_window" as const,
  limit: 1,
  window: "1s",
};
const yamlFor = (slug: string) => `tenants:\n  - slug: ${slug}\n    plan: ${plan}\n`;

const cases: [string, () => Promise<unknown>][] = [
  ["page: tenantDetail (limits, routes, settings, tokens, members pages)", () => tenantDetail(member, b)],
  ["page: listApiKeys (keys page)", () => listApiKeys(member, b)],
  ["page: listMembers (members page)", () => listMembers(member, b)],
  ["page: listTokens (tenant tokens page)", () => listTokens(member, b)],
  ["page: listAuditEntries (tenant audit page)", () => listAuditEntries(member, { tenantSlug: b })],
  ["page: exportDocument (tenant YAML page)", () => exportDocument(member, b)],
  ["action: createKey", () => createApiKey(member, b, { name: "sneak" })],
  ["action: revokeKey", () => revokeApiKey(member, b, "k1")],
  [
    "action: saveLimit on the tenant",
    () => saveLimit(member, { kind: "tenant", tenant: b }, { originalName: null, limit }),
  ],
  [
    "action: saveLimit changing B's limit",
    () =>
      saveLimit(
        member,
        { kind: "tenant", tenant: b },
        { originalName: "own-cap", limit: { ...limit, name: "own-cap" } },
      ),
  ],
  [
    "action: saveLimit on B's route",
    () =>
      saveLimit(
        member,
        { kind: "tenant-route", tenant: b, pattern: "GET /dash/*" },
        { originalName: null, limit },
      ),
  ],
  [
    "action: saveLimit on B's key",
    () => saveLimit(member, { kind: "key", tenant: b, key: "k1" }, { originalName: null, limit }),
  ],
  [
    "action: deleteLimit",
    () => saveLimit(member, { kind: "tenant", tenant: b }, { originalName: "own-cap", limit: null }),
  ],
  ["action: addRoute", () => addTenantRoute(member, b, "GET /sneak")],
  ["action: removeRoute", () => removeTenantRoute(member, b, "GET /dash/*")],
  ["action: updateTenant", () => updateTenant(member, { slug: b, name: "Taken", plan, status: "active" })],
  [
    "action: createInvitation",
    () => createInvitation(member, b, { email: `${a}-x@sneak.test`, role: "viewer" }),
  ],
  ["read: listInvitations", () => listInvitations(member, b)],
  ["action: revokeInvitation", () => revokeInvitation(member, b, "no-such-id")],
  ["action: changeRole", () => changeMemberRole(member, b, { userId: bMemberId, role: "owner" })],
  ["action: removeMember", () => removeMember(member, b, bMemberId)],
  ["action: createServiceToken for B", () => createServiceToken(member, { name: "sneak", tenants: [b] })],
  [
    "action: createAdminToken for B",
    () => createAdminToken(member, { name: "sneak", role: "viewer", tenant: b }),
  ],
  ["action: revokeToken (B's service token id)", () => revokeToken(member, "service", bServiceToken)],
  ["action: revokeToken (B's admin token id)", () => revokeToken(member, "admin", bAdminToken)],
  ["action: previewImport of B", () => previewImport(member, yamlFor(b))],
  ["action: applyImport of B", () => applyImport(member, yamlFor(b))],
];

describe("a member of A asking for B gets NotFoundError", () => {
  it.each(cases)("%s", async (_name, call) => {
    await expect(call()).rejects.toBeInstanceOf(NotFoundError);
  });

  it("the same calls for A itself are allowed (the table is not vacuous)", async () => {
    await expect(tenantDetail(member, a)).resolves.toMatchObject({ slug: a, role: "owner" });
    await expect(listApiKeys(member, a)).resolves.toHaveLength(1);
    await expect(exportDocument(member, a)).resolves.toMatchObject({ tenants: [{ slug: a }] });
  });

  it("B is unchanged: no key, route, member, limit or token was added, revoked or removed", async () => {
    const tenant = await db().tenant.findUniqueOrThrow({
      where: { slug: b },
      include: { apiKeys: true, routes: true, memberships: true, limits: true },
    });
    expect(tenant.name).toBe(`Tenant ${b}`);
    expect(tenant.apiKeys.map((k) => [k.name, k.revokedAt])).toEqual([["k1", null]]);
    expect(tenant.routes.map((r) => r.pattern)).toEqual(["GET /dash/*"]);
    expect(tenant.memberships.map((m) => m.role)).toEqual(["viewer"]);
    expect(tenant.limits.map((l) => [l.name, l.limit])).toEqual([["own-cap", 10]]);
    const tokens = await db().serviceToken.findUniqueOrThrow({ where: { id: bServiceToken } });
    expect(tokens.revokedAt).toBeNull();
  });
});
