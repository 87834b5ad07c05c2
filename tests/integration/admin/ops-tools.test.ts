// The ops tools over HTTP on the running app (real PostgreSQL and Redis): the request
// simulator (a dry run that consumes nothing and names the deciding limit and where each
// value comes from), identifier lookup (counters plus the recent-decisions sample written by
// the front's usage flush), configuration history and rollback, and YAML errors located.
// A hostile tenant's lowest role gets 404 for everything of ours.
import { beforeAll, describe, expect, it } from "vitest";
import {
  anyPlan,
  call,
  createAdminToken,
  createKey,
  planLimitsOff,
  putTenants,
  uniqueSlug,
  type ErrorReply,
} from "./http";

const slug = uniqueSlug("ops");
const other = uniqueSlug("ops-other");
const hour = { algorithm: "fixed_window", window: "1h" };
let plan = "";
let hostile = ""; // a viewer of `other`
let editor = ""; // an editor of `slug`
let viewer = ""; // a viewer of `slug`

interface SimLimit {
  name: string;
  remaining: number;
  deciding: boolean;
  allowsThisCheck: boolean;
  provenance: { level: string; source: string }[];
}
interface Simulation {
  allowed: boolean;
  reason: string;
  route: string | null;
  limits: SimLimit[];
}
interface Decision {
  subject: string | null;
  outcome: string;
  deniedBy: string | null;
  key: string | null;
}
interface Lookup {
  state: { limits: { name: string; remaining: number }[] };
  decisions: Decision[];
  denials: Decision[];
  canReset: boolean;
}
interface History {
  versions: {
    version: number;
    actors: string[];
    changes: { action: string; before: unknown; after: unknown }[];
    restorable: boolean;
  }[];
  nextBefore: number | null;
}

async function check(body: Record<string, unknown>): Promise<{ allowed: boolean; reason: string }> {
  const reply = await call<{ allowed: boolean; reason: string }>("POST", "/api/check", {
    body: { tenant: slug, ...body },
  });
  if (reply.status !== 200) throw new Error(`check: ${reply.status} ${reply.text}`);
  return reply.body;
}

async function get<T>(path: string, token?: string): Promise<T> {
  const reply = await call<T>("GET", path, token === undefined ? {} : { token });
  if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${reply.text}`);
  return reply.body;
}

const tenantDoc = (keyLimit: number) => ({
  slug,
  plan,
  limits: [...planLimitsCache, { name: "ops-tenant", by: "tenant", limit: 50, ...hour }],
  routes: [{ pattern: "POST /ops/:id", limits: [{ name: "ops-route", by: "subject", limit: 2, ...hour }] }],
  keys: [{ name: "k1", limits: [{ name: "ops-key", by: "key", limit: keyLimit, ...hour }] }],
});
let planLimitsCache: Record<string, unknown>[] = [];

beforeAll(async () => {
  plan = await anyPlan();
  planLimitsCache = await planLimitsOff(plan);
  await putTenants([
    { slug, plan, limits: planLimitsCache },
    { slug: other, plan },
  ]);
  await createKey(slug, "k1");
  await putTenants([tenantDoc(10)]);
  hostile = await createAdminToken({ name: "ops hostile", role: "viewer", tenant: other });
  editor = await createAdminToken({ name: "ops editor", role: "editor", tenant: slug });
  viewer = await createAdminToken({ name: "ops viewer", role: "viewer", tenant: slug });
  for (let i = 0; i < 50 && (await check({ key: "k1", dryRun: true })).reason !== "ok"; i++)
    await new Promise((resolve) => setTimeout(resolve, 100));
});

describe("simulator", () => {
  const route = encodeURIComponent("POST /ops/7");
  it("lists every limit with where it comes from, and consumes nothing", async () => {
    const path = `/api/admin/simulate?tenant=${slug}&key=k1&route=${route}&subject=198.51.100.1`;
    const first = await get<Simulation>(path);
    expect(first.allowed).toBe(true);
    expect(first.route).toBe("POST /ops/:id");
    expect(first.limits.map((l) => l.name).sort()).toEqual(["ops-key", "ops-route", "ops-tenant"]);
    expect(first.limits.find((l) => l.name === "ops-key")?.provenance.at(-1)?.level).toBe("key");
    expect(first.limits.find((l) => l.name === "ops-route")?.provenance[0]?.level).toBe("route");
    const again = await get<Simulation>(path);
    expect(again.limits.find((l) => l.name === "ops-route")?.remaining).toBe(2);
  });

  it("names the limit that would deny a check of this cost", async () => {
    const sim = await get<Simulation>(
      `/api/admin/simulate?tenant=${slug}&key=k1&route=${route}&subject=198.51.100.1&cost=3`,
    );
    expect(sim).toMatchObject({ allowed: false, reason: "cost_exceeds_capacity" });
    expect(sim.limits.find((l) => l.deciding)?.name).toBe("ops-route");
    expect(sim.limits.find((l) => l.name === "ops-tenant")?.allowsThisCheck).toBe(true);
  });

  it("refuses bad input with the field named", async () => {
    const reply = await call<ErrorReply>("GET", `/api/admin/simulate?tenant=${slug}&cost=-1`);
    expect(reply.status).toBe(400);
    expect(reply.body.error.path).toBe("cost");
  });
});

describe("identifier lookup", () => {
  it("shows a subject's counters, its recent decisions and the limit that denied them", async () => {
    const subject = "198.51.100.2";
    for (let i = 0; i < 3; i++) await check({ key: "k1", route: "POST /ops/9", subject });
    // the sample is written by the front's flush, once a second
    let lookup: Lookup | null = null;
    for (let i = 0; i < 40; i++) {
      lookup = await get<Lookup>(`/api/admin/lookup?tenant=${slug}&subject=${subject}`, viewer);
      if (lookup.denials.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    expect(lookup?.decisions.filter((d) => d.subject === subject)).toHaveLength(3);
    expect(lookup?.denials[0]).toMatchObject({
      subject,
      outcome: "rejected",
      deniedBy: "ops-route",
      key: "k1",
    });
    expect(lookup?.canReset).toBe(false);
    // another subject's sample is not this one's
    const clean = await get<Lookup>(`/api/admin/lookup?tenant=${slug}&subject=198.51.100.99`);
    expect(clean.decisions).toEqual([]);
  });

  it("the reset it offers clears the counter for editors", async () => {
    const reset = await call("POST", "/api/admin/reset", {
      token: editor,
      body: { tenant: slug, limit: "ops-route", route: "POST /ops/9", subject: "198.51.100.2" },
    });
    expect(reset.status).toBe(200);
    const after = await get<Lookup>(
      `/api/admin/lookup?tenant=${slug}&route=${encodeURIComponent("POST /ops/9")}&subject=198.51.100.2`,
    );
    expect(after.state.limits.find((l) => l.name === "ops-route")?.remaining).toBe(2);
  });
});

describe("history and rollback", () => {
  it("lists versions with who and a before/after, and rolls a tenant back as a new audited version", async () => {
    await putTenants([tenantDoc(99)]);
    const history = await get<History>(`/api/admin/history?tenant=${slug}&limit=5`, viewer);
    const [newest, previous] = history.versions;
    expect(newest?.changes[0]?.action).toBe("tenant.update");
    expect(JSON.stringify(newest?.changes[0]?.after)).toContain("99");
    expect(previous?.restorable).toBe(true);
    const rolled = await call<{ configVersion: number; restored: number }>("POST", "/api/admin/rollback", {
      token: editor,
      body: { version: previous?.version, tenant: slug },
    });
    expect(rolled.status).toBe(200);
    expect(rolled.body.configVersion).toBeGreaterThan(newest?.version ?? 0);
    const doc = await get<{ tenants: { slug: string; keys: { limits: { limit: number }[] }[] }[] }>(
      "/api/admin/config",
      editor,
    );
    expect(doc.tenants[0]?.keys[0]?.limits[0]?.limit).toBe(10);
    const after = await get<History>(`/api/admin/history?tenant=${slug}&limit=1`);
    expect(after.versions[0]?.changes.map((c) => c.action)).toEqual(["tenant.update", "config.rollback"]);
  });

  it("a viewer may not roll back; a tenant member may not roll back the whole configuration", async () => {
    const version = (await get<History>(`/api/admin/history?tenant=${slug}&limit=3`)).versions[2]?.version;
    expect(
      (await call("POST", "/api/admin/rollback", { token: viewer, body: { version, tenant: slug } })).status,
    ).toBe(403);
    expect((await call("POST", "/api/admin/rollback", { token: editor, body: { version } })).status).toBe(
      403,
    );
    const bad = await call<ErrorReply>("POST", "/api/admin/rollback", { body: { version: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.path).toBe("version");
  });
});

describe("a hostile tenant's viewer", () => {
  it.each([
    ["simulate", `/api/admin/simulate?tenant=${slug}&key=k1`],
    ["lookup", `/api/admin/lookup?tenant=${slug}&subject=198.51.100.2`],
    ["history", `/api/admin/history?tenant=${slug}`],
  ])("gets 404 for our %s", async (_label, path) => {
    expect((await call("GET", path, { token: hostile })).status).toBe(404);
  });

  it("gets 404 rolling back our tenant, and its own history shows none of our versions", async () => {
    const version = (await get<History>(`/api/admin/history?tenant=${slug}&limit=1`)).versions[0]?.version;
    expect(
      (await call("POST", "/api/admin/rollback", { token: hostile, body: { version, tenant: slug } })).status,
    ).toBe(404);
    const own = await get<History>("/api/admin/history?limit=100", hostile);
    expect(own.versions.some((v) => v.version === version)).toBe(false);
  });
});

describe("document errors located", () => {
  it("answers line and column for a YAML syntax error and for a validation error", async () => {
    const text = `tenants:\n  - slug: ${slug}\n    plan: ${plan}\n    limits:\n      - { name: x, by: tenant, limit: -5, algorithm: fixed_window, window: 1h }\n`;
    const reply = await call<ErrorReply & { errors: { path: string; line?: number; column?: number }[] }>(
      "PUT",
      "/api/admin/config?dryRun=true",
      { body: text, contentType: "application/yaml" },
    );
    expect(reply.status).toBe(422);
    const located = reply.body.errors.find((e) => e.path.startsWith("tenants[0].limits[0]"));
    expect(located).toMatchObject({ line: 5 });
    const syntax = await call<{ errors: { line?: number; column?: number }[] }>("PUT", "/api/admin/config", {
      body: "tenants:\n  - slug: a\n   plan: [\n",
      contentType: "application/yaml",
    });
    expect(syntax.status).toBe(422);
    expect(syntax.body.errors[0]?.line).toBeGreaterThanOrEqual(3);
  });
});
