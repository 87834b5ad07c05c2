// Counters through the admin API: state reads them without consuming, reset clears one
// limit (for one owner or all), and both reset and config changes are in the audit log
// with before and after. Traffic comes from the app's own POST /api/check.
import { beforeAll, describe, expect, it } from "vitest";
import { anyPlan, call, createKey, planLimitsOff, putTenants, uniqueSlug, type ErrorReply } from "./http";

const slug = uniqueSlug("state");
const hour = { algorithm: "fixed_window", window: "1h" };

interface LimitState {
  name: string;
  remaining: number;
  wouldAllow: boolean;
  route: string | null;
}
interface StateReply {
  route: string | null;
  limits: LimitState[];
  skipped: { name: string }[];
}
interface AuditEntry {
  action: string;
  actor: { type: string };
  tenant: string | null;
  target: { type: string; id: string | null };
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  requestId: string | null;
}

async function check(body: Record<string, unknown>): Promise<{ reason: string; allowed: boolean }> {
  const reply = await call<{ reason: string; allowed: boolean }>("POST", "/api/check", {
    body: { tenant: slug, ...body },
  });
  if (reply.status !== 200) throw new Error(`check: ${reply.status} ${reply.text}`);
  return reply.body;
}

async function state(query: string): Promise<StateReply> {
  const reply = await call<StateReply>("GET", `/api/admin/state?tenant=${slug}${query}`);
  if (reply.status !== 200) throw new Error(`state: ${reply.status} ${reply.text}`);
  return reply.body;
}

const remaining = (reply: StateReply, name: string): number | undefined =>
  reply.limits.find((l) => l.name === name)?.remaining;

beforeAll(async () => {
  const plan = await anyPlan();
  await putTenants([
    {
      slug,
      plan,
      limits: [
        ...(await planLimitsOff(plan)),
        { name: "adm-fixed", by: "tenant", limit: 5, ...hour },
        { name: "adm-key", by: "key", limit: 4, ...hour },
        { name: "adm-subj", by: "subject", limit: 3, ...hour },
      ],
      routes: [
        { pattern: "POST /adm/:id", limits: [{ name: "adm-route", by: "tenant", limit: 2, ...hour }] },
      ],
    },
  ]);
  await createKey(slug, "k1");
  // the running servers pick the new version up within a second
  for (let i = 0; i < 50 && (await check({ dryRun: true })).reason === "unknown_tenant"; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (let i = 0; i < 50 && (await check({ key: "k1", dryRun: true })).reason === "unknown_key"; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

describe("state", () => {
  it("reads every limit without consuming: twice, same numbers", async () => {
    const first = await state("&key=k1");
    const second = await state("&key=k1");
    expect(remaining(first, "adm-fixed")).toBe(5);
    expect(remaining(first, "adm-key")).toBe(4);
    expect(remaining(second, "adm-fixed")).toBe(5);
    expect(first.limits.find((l) => l.name === "adm-fixed")?.wouldAllow).toBe(true);
  });

  it("shows what checks consumed", async () => {
    for (let i = 0; i < 3; i++) expect((await check({ key: "k1" })).allowed).toBe(true);
    const after = await state("&key=k1");
    expect(remaining(after, "adm-fixed")).toBe(2);
    expect(remaining(after, "adm-key")).toBe(1);
  });

  it("lists subject limits as skipped without a subject, and reads them with one", async () => {
    expect((await state("")).skipped.map((s) => s.name)).toContain("adm-subj");
    expect(remaining(await state("&subject=203.0.113.9"), "adm-subj")).toBe(3);
  });

  it("resolves the route and includes its limits", async () => {
    const routed = await state(`&route=${encodeURIComponent("POST /adm/42")}`);
    expect(routed.route).toBe("POST /adm/:id");
    expect(remaining(routed, "adm-route")).toBe(2);
    expect(remaining(await state(""), "adm-route")).toBeUndefined();
  });

  it.each([
    ["key", "&key=no-such-key", 404, undefined],
    ["route", "&route=not-a-route", 400, "route"],
    ["subject", `&subject=${"x".repeat(300)}`, 400, "subject"],
    ["unknown parameter", "&colour=red", 400, "colour"],
  ])("refuses a bad %s", async (_label, query, status, path) => {
    const reply = await call<ErrorReply>("GET", `/api/admin/state?tenant=${slug}${query}`);
    expect(reply.status).toBe(status);
    if (path) expect(reply.body.error.path).toBe(path);
  });
});

describe("reset", () => {
  it("clears one limit for every owner, leaving the others", async () => {
    const reply = await call<{ deleted: number }>("POST", "/api/admin/reset", {
      body: { tenant: slug, limit: "adm-fixed" },
      headers: { "x-request-id": `adm-reset-${slug}` },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.deleted).toBeGreaterThanOrEqual(1);
    const after = await state("&key=k1");
    expect(remaining(after, "adm-fixed")).toBe(5);
    expect(remaining(after, "adm-key")).toBe(1);
  });

  it("clears one key's counter when the key is named", async () => {
    const reply = await call("POST", "/api/admin/reset", {
      body: { tenant: slug, limit: "adm-key", key: "k1" },
    });
    expect(reply.status).toBe(200);
    expect(remaining(await state("&key=k1"), "adm-key")).toBe(4);
  });

  it("clears one subject's counter when the subject is named", async () => {
    await check({ subject: "a" });
    await check({ subject: "a" });
    await check({ subject: "b" });
    const reply = await call("POST", "/api/admin/reset", {
      body: { tenant: slug, limit: "adm-subj", subject: "a" },
    });
    expect(reply.status).toBe(200);
    expect(remaining(await state("&subject=a"), "adm-subj")).toBe(3);
    expect(remaining(await state("&subject=b"), "adm-subj")).toBe(2);
  });

  it("404 for a limit the tenant does not have; 400 naming a missing field", async () => {
    const unknown = await call<ErrorReply>("POST", "/api/admin/reset", {
      body: { tenant: slug, limit: "no-such-limit" },
    });
    expect(unknown.status).toBe(404);
    const missing = await call<ErrorReply>("POST", "/api/admin/reset", { body: { tenant: slug } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.path).toBe("limit");
  });
});

describe("audit", () => {
  it("records the reset with who, before and after, and the request id", async () => {
    const reply = await call<{ entries: AuditEntry[] }>("GET", `/api/admin/audit?tenant=${slug}&limit=50`);
    const entry = reply.body.entries.find((e) => e.requestId === `adm-reset-${slug}`);
    expect(entry).toMatchObject({
      action: "counter.reset",
      tenant: slug,
      actor: { type: "bootstrap" },
      target: { type: "limit", id: "adm-fixed" },
    });
    expect(entry?.before?.counters).toBeGreaterThanOrEqual(1);
    expect(entry?.after).toEqual({ counters: 0 });
  });

  it("records config changes with the tenant before and after, newest first", async () => {
    const plan = await anyPlan();
    const limits = [...(await planLimitsOff(plan)), { name: "adm-fixed", by: "tenant", limit: 5, ...hour }];
    await putTenants([{ slug, plan, name: "Renamed", limits }]);
    const reply = await call<{ entries: AuditEntry[] }>("GET", `/api/admin/audit?tenant=${slug}&limit=1`);
    const [latest] = reply.body.entries;
    expect(latest?.action).toBe("tenant.update");
    expect(latest?.before?.name).toBe(slug);
    expect(latest?.after?.name).toBe("Renamed");
  });

  it("pages with limit (page size) and before", async () => {
    const first = await call<{ entries: (AuditEntry & { id: string })[]; nextBefore: string }>(
      "GET",
      `/api/admin/audit?tenant=${slug}&limit=2`,
    );
    expect(first.body.entries).toHaveLength(2);
    const next = await call<{ entries: (AuditEntry & { id: string })[] }>(
      "GET",
      `/api/admin/audit?tenant=${slug}&limit=2&before=${first.body.nextBefore}`,
    );
    expect(next.body.entries.length).toBeGreaterThan(0);
    expect(BigInt(next.body.entries[0]!.id)).toBeLessThan(BigInt(first.body.entries[1]!.id));
    const bad = await call<ErrorReply>("GET", `/api/admin/audit?limit=0`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.path).toBe("limit");
  });
});
