import { beforeAll, describe, expect, it } from "vitest";
import { anyPlan, call, createAdminToken, putTenants, uniqueSlug, type ErrorReply } from "../admin/http";

// The alert API as a hostile tenant would use it, over HTTP against the running app:
// another tenant's rule ids and endpoint names, a viewer, tenant admins asking for private
// networks or non-http targets, huge and malformed input. Each is refused with a clear
// error and changes nothing.

const mine = uniqueSlug("al-a");
const other = uniqueSlug("al-b");
let admin = "";
let viewer = "";
let otherRuleId = "";
const base = (slug: string) => `/api/admin/tenants/${slug}/alerts`;

beforeAll(async () => {
  const plan = await anyPlan();
  await putTenants([
    { slug: mine, plan },
    { slug: other, plan },
  ]);
  admin = await createAdminToken({ name: "al admin", role: "admin", tenant: mine });
  viewer = await createAdminToken({ name: "al viewer", role: "viewer", tenant: mine });
  // the other tenant's endpoint and rule, made by the operator (bootstrap token)
  const ep = await call("POST", `${base(other)}/endpoints`, {
    body: { name: "theirs", url: "https://hooks.example.com/x" },
  });
  expect(ep.status).toBe(201);
  const rule = await call<{ id: string }>("POST", `${base(other)}/rules`, {
    body: { name: "theirs", kind: "degraded", forSeconds: 60, endpoint: "theirs" },
  });
  expect(rule.status).toBe(201);
  otherRuleId = rule.body.id;
});

describe("alert endpoints and rules, hostile input", () => {
  it("creates an endpoint with its secret shown once, and never lists the secret", async () => {
    const made = await call<{ secret: string; endpoint: { secretPrefix: string } }>(
      "POST",
      `${base(mine)}/endpoints`,
      {
        token: admin,
        body: { name: "ops", url: "https://hooks.example.com/ops", format: "slack" },
      },
    );
    expect(made.status).toBe(201);
    expect(made.body.secret).toMatch(/^whsec_/);
    const listed = await call("GET", `${base(mine)}/endpoints`, { token: viewer });
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(made.body.secret);
    expect(listed.text).toContain(made.body.endpoint.secretPrefix);
  });

  it("refuses non-http schemes and private targets for a tenant admin, naming the field", async () => {
    for (const url of [
      "ftp://hooks.example.com/x",
      "file:///etc/passwd",
      "gopher://x",
      "javascript:alert(1)",
      "http://user:pw@example.com/",
    ]) {
      const reply = await call<ErrorReply>("POST", `${base(mine)}/endpoints`, {
        token: admin,
        body: { name: "bad", url },
      });
      expect(reply.status, url).toBe(400);
      expect(JSON.stringify(reply.body), url).toContain("url");
    }
    for (const url of [
      "http://127.0.0.1:9/",
      "http://localhost/",
      "http://[::1]/",
      "http://169.254.169.254/",
      "http://192.168.1.1/",
      "http://10.0.0.8/",
    ]) {
      const reply = await call<ErrorReply>("POST", `${base(mine)}/endpoints`, {
        token: admin,
        body: { name: "bad", url },
      });
      expect(reply.status, url).toBe(409);
      expect(reply.body.error.message, url).toMatch(/url: a private, loopback or link-local host/);
      // the way out, and who may take it
      expect(reply.body.error.message, url).toContain('only an operator can set "Allow private networks"');
    }
    const allow = await call<ErrorReply>("POST", `${base(mine)}/endpoints`, {
      token: admin,
      body: { name: "bad", url: "http://127.0.0.1:9/", allowPrivate: true },
    });
    expect(allow.status).toBe(403);
    const listed = await call<{ endpoints: { name: string }[] }>("GET", `${base(mine)}/endpoints`, {
      token: admin,
    });
    expect(listed.body.endpoints.map((e) => e.name)).not.toContain("bad");
  });

  it("another tenant's rule id is not found, and its endpoint cannot be named", async () => {
    const del = await call<ErrorReply>("DELETE", `${base(mine)}/rules/${otherRuleId}`, { token: admin });
    expect(del.status).toBe(404);
    const cross = await call<ErrorReply>("DELETE", `${base(other)}/rules/${otherRuleId}`, { token: admin });
    expect(cross.status).toBe(404);
    const theirs = await call<ErrorReply>("POST", `${base(mine)}/rules`, {
      token: admin,
      body: { name: "steal", kind: "degraded", endpoint: "theirs" },
    });
    expect(theirs.status).toBe(409);
    expect(theirs.body.error.message).toMatch(/endpoint/);
    for (const path of ["endpoints", "rules", "deliveries"]) {
      expect((await call("GET", `${base(other)}/${path}`, { token: admin })).status).toBe(404);
    }
    const rules = await call<{ rules: { id: string; disabledAt: string | null }[] }>(
      "GET",
      `${base(other)}/rules`,
    );
    expect(rules.body.rules.find((r) => r.id === otherRuleId)?.disabledAt).toBeNull();
  });

  it("a viewer reads but changes nothing", async () => {
    const ep = await call<ErrorReply>("POST", `${base(mine)}/endpoints`, {
      token: viewer,
      body: { name: "v", url: "https://hooks.example.com/v" },
    });
    expect(ep.status).toBe(403);
    const rule = await call<ErrorReply>("POST", `${base(mine)}/rules`, {
      token: viewer,
      body: { name: "v", kind: "degraded", endpoint: "ops" },
    });
    expect(rule.status).toBe(403);
    expect((await call("GET", `${base(mine)}/deliveries`, { token: viewer })).status).toBe(200);
  });

  it("refuses huge and malformed input with the field named", async () => {
    const cases: [unknown, string, number][] = [
      [{ name: "x".repeat(70), kind: "degraded", endpoint: "ops" }, "name", 400],
      [{ name: "r", kind: "degraded", endpoint: "ops", route: "r".repeat(5_000) }, "route", 400],
      [{ name: "r", kind: "utilization", endpoint: "ops", thresholdPct: 80 }, "limit", 400],
      [{ name: "r", kind: "rejection_rate", endpoint: "ops", thresholdPct: 500 }, "thresholdPct", 400],
      [{ name: "r", kind: "degraded", endpoint: "ops", forSeconds: 1e9 }, "forSeconds", 400],
      [{ name: "r", kind: "degraded", endpoint: "ops", extra: 1 }, "extra", 400],
      [{ name: "r", kind: "everything", endpoint: "ops" }, "kind", 400],
    ];
    for (const [body, field, status] of cases) {
      const reply = await call<ErrorReply>("POST", `${base(mine)}/rules`, { token: admin, body });
      expect(reply.status, field).toBe(status);
      expect(JSON.stringify(reply.body), field).toContain(field);
    }
    const big = await call("POST", `${base(mine)}/endpoints`, {
      token: admin,
      body: { name: "big", url: `https://example.com/${"a".repeat(100_000)}` },
    });
    expect(big.status).toBe(413);
    const listed = await call<{ rules: unknown[] }>("GET", `${base(mine)}/rules`, { token: admin });
    expect(listed.body.rules).toHaveLength(0);
  });

  it("audits each change", async () => {
    const made = await call("POST", `${base(mine)}/rules`, {
      token: admin,
      body: { name: "audited", kind: "rejection_rate", thresholdPct: 5, forSeconds: 300, endpoint: "ops" },
    });
    expect(made.status).toBe(201);
    const audit = await call<{ entries: { action: string }[] }>("GET", `/api/admin/audit?tenant=${mine}`, {
      token: admin,
    });
    const actions = audit.body.entries.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["alert-endpoint.create", "alert-rule.create"]));
  });
});
