// POST /api/admin/plan-assignments over HTTP: every listed tenant moves to the plan in one
// version (one tenant.plan entry per tenant moved), none when all are on it already; an
// operator's call only; unknown slugs (and the plan) named at their index with nothing
// moved; a tenant whose configuration the new plan would make invalid refuses them all.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createAdminToken,
  exportJson,
  importJson,
  putTenants,
  uniqueSlug,
  type ErrorReply,
} from "../admin/http";
import { auditOf, newRequestId } from "./bulk-helpers";

// named to sort after every other plan: other files take the first plan as theirs
const suffix = randomBytes(3).toString("hex");
const planA = `zz-pa-plan-a-${suffix}`;
const planB = `zz-pa-plan-b-${suffix}`;
const slugs = [uniqueSlug("pa-1"), uniqueSlug("pa-2"), uniqueSlug("pa-3")];
const full = { by: "tenant", algorithm: "fixed_window", limit: 100, window: "1m" };

interface Assigned {
  configVersion: number | null;
  moved: string[];
  unchanged: string[];
}

const planOf = async (slug: string): Promise<string | undefined> =>
  (await exportJson()).tenants?.find((t) => t.slug === slug)?.plan;

beforeAll(async () => {
  const current = await exportJson();
  const plans = [
    ...(current.plans ?? []),
    { name: planA, limits: [{ name: "pa-shared", ...full }] },
    { name: planB, limits: [] },
  ];
  const reply = await importJson({ plans });
  if (reply.status !== 200) throw new Error(`plans: ${reply.status} ${reply.text}`);
  await putTenants(slugs.map((slug) => ({ slug, plan: planB })));
});

const assign = (body: unknown, token?: string, requestId?: string) =>
  call<Assigned & ErrorReply>("POST", "/api/admin/plan-assignments", {
    body,
    ...(token ? { token } : {}),
    ...(requestId ? { headers: { "x-request-id": requestId } } : {}),
  });

describe("bulk plan assignment", () => {
  it("moves every tenant in one version, one audit entry each; again: no change, no version", async () => {
    await putTenants([{ slug: slugs[2]!, plan: planA }]);
    const requestId = newRequestId();
    const reply = await assign({ plan: planA, tenants: slugs }, undefined, requestId);
    expect(reply.status).toBe(200);
    expect(reply.body.moved).toEqual([slugs[0], slugs[1]]);
    expect(reply.body.unchanged).toEqual([slugs[2]]);
    expect(reply.body.configVersion).toEqual(expect.any(Number));
    const audit = await auditOf(requestId);
    expect(audit.map((e) => [e.action, e.targetId])).toEqual([
      ["tenant.plan", slugs[0]],
      ["tenant.plan", slugs[1]],
    ]);
    expect(audit.every((e) => e.configVersion === reply.body.configVersion)).toBe(true);
    expect(audit[0]?.before).toEqual({ plan: planB });
    expect(audit[0]?.after).toEqual({ plan: planA });
    for (const slug of slugs) expect(await planOf(slug)).toBe(planA);
    const again = await assign({ plan: planA, tenants: slugs });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ configVersion: null, moved: [], unchanged: slugs });
  });

  it("unknown slugs and an unknown plan are a 422 naming each; nothing moves", async () => {
    const reply = await assign({
      plan: planB,
      tenants: [slugs[0], "pa-no-such-x", slugs[1], "pa-no-such-y"],
    });
    expect(reply.status).toBe(422);
    expect(reply.body.errors?.map((e) => e.path)).toEqual(["tenants[1]", "tenants[3]"]);
    expect(reply.body.errors?.[0]?.message).toMatch(/pa-no-such-x/);
    const plan = await assign({ plan: "pa-no-such-plan", tenants: [slugs[0]] });
    expect(plan.status).toBe(422);
    expect(plan.body.errors?.map((e) => e.path)).toEqual(["plan"]);
    expect(await planOf(slugs[0]!)).toBe(planA);
  });

  it("a tenant the new plan would make invalid (an override of a limit the plan lacks) refuses all", async () => {
    // slugs[1] overrides pa-shared partially: valid on plan A, which has it, not on plan B
    await putTenants([{ slug: slugs[1]!, plan: planA, limits: [{ name: "pa-shared", limit: 5 }] }]);
    const reply = await assign({ plan: planB, tenants: [slugs[0], slugs[1]] });
    expect(reply.status).toBe(422);
    // each field the override lacks on plan B (no base to inherit from), all at that tenant
    expect(new Set(reply.body.errors?.map((e) => e.path))).toEqual(new Set(["tenants[1]"]));
    expect(reply.body.errors?.[0]?.message).toContain(slugs[1]);
    expect(await planOf(slugs[0]!)).toBe(planA);
    await putTenants([{ slug: slugs[1]!, plan: planA }]);
  });

  it("only operators: a tenant owner's token is refused, and changes nothing", async () => {
    const owner = await createAdminToken({ name: "pa owner", role: "owner", tenant: slugs[0]! });
    const reply = await assign({ plan: planB, tenants: [slugs[0]] }, owner);
    expect(reply.status).toBe(403);
    expect(await planOf(slugs[0]!)).toBe(planA);
  });

  it("validation names the field; more than 1,000 tenants are refused", async () => {
    const cases: [unknown, string][] = [
      [{ plan: planB, tenants: [slugs[0], "Not A Slug"] }, "tenants[1]"],
      [{ plan: planB, tenants: [slugs[0], slugs[0]] }, "tenants[1]"],
      [{ plan: planB, tenants: [] }, "tenants"],
      [{ tenants: [slugs[0]] }, "plan"],
      [{ plan: planB, tenants: Array.from({ length: 1001 }, (_, i) => `pa-t${i}`) }, "tenants"],
    ];
    for (const [body, field] of cases) {
      const reply = await assign(body);
      expect(reply.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(reply.body.errors?.map((e) => e.path) ?? [reply.body.error.path]).toContain(field);
    }
  });
});
