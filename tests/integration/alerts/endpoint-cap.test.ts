import { beforeAll, describe, expect, it } from "vitest";
import { anyPlan, call, createAdminToken, putTenants, uniqueSlug, type ErrorReply } from "../admin/http";

// The cap on alert endpoints counts enabled ones: a tenant that disabled endpoints can add
// new ones (endpoints are never deleted, so counting disabled ones locked tenants out).
// All endpoints, disabled ones included, stay bounded by a higher cap.

const slug = uniqueSlug("al-cap");
let admin = "";
const endpoints = `/api/admin/tenants/${slug}/alerts/endpoints`;

const create = (name: string) =>
  call<ErrorReply>("POST", endpoints, {
    token: admin,
    body: { name, url: `https://hooks.example.com/${name}` },
  });
const disable = (name: string) => call("DELETE", `${endpoints}/${name}`, { token: admin });

async function count(): Promise<{ all: number; enabled: number }> {
  const reply = await call<{ endpoints: { disabledAt: string | null }[] }>("GET", endpoints, {
    token: admin,
  });
  expect(reply.status).toBe(200);
  const list = reply.body.endpoints;
  return { all: list.length, enabled: list.filter((e) => e.disabledAt === null).length };
}

beforeAll(async () => {
  await putTenants([{ slug, plan: await anyPlan() }]);
  admin = await createAdminToken({ name: "al cap admin", role: "admin", tenant: slug });
});

describe("the alert endpoint cap", () => {
  it("counts enabled endpoints: at 20 enabled a 21st is refused; disabling one frees a place", async () => {
    for (let i = 0; i < 20; i++) expect((await create(`ep-${i}`)).status).toBe(201);
    const refused = await create("ep-20");
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/at most 20 enabled alert endpoints/);
    expect(await count()).toEqual({ all: 20, enabled: 20 });
    expect((await disable("ep-0")).status).toBe(200);
    expect((await create("ep-20")).status).toBe(201);
    expect(await count()).toEqual({ all: 21, enabled: 20 });
  });

  it("bounds all endpoints, disabled ones included, at 100", { timeout: 180_000 }, async () => {
    // 21 exist (one disabled): disable and add until 100 are kept, 20 of them enabled.
    let next = 21;
    for (let kept = 21; kept < 100; kept++) {
      expect((await disable(`ep-${next - 20}`)).status).toBe(200);
      expect((await create(`ep-${next}`)).status).toBe(201);
      next++;
    }
    expect(await count()).toEqual({ all: 100, enabled: 20 });
    expect((await disable(`ep-${next - 20}`)).status).toBe(200);
    const refused = await create(`ep-${next}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/at most 100 alert endpoints, disabled ones included/);
    expect(await count()).toEqual({ all: 100, enabled: 19 });
  });
});
