// GET/PUT /api/admin/config over HTTP: round trips in JSON and YAML change nothing, an
// import with several errors answers 422 with every error and changes nothing, dry runs
// and prune previews apply nothing, and bodies of the wrong type or size are refused.
import { parse as parseYaml } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import {
  anyPlan,
  call,
  createAdminToken,
  exportJson,
  importJson,
  putTenants,
  uniqueSlug,
  type ErrorReply,
  type ImportReply,
} from "./http";

const slug = uniqueSlug("cfg");
let plan = "";

beforeAll(async () => {
  plan = await anyPlan();
  await putTenants([
    {
      slug,
      name: "Config test",
      plan,
      limits: [{ name: "adm-rpm", by: "tenant", algorithm: "fixed_window", limit: 50, window: "1m" }],
      routes: [
        {
          pattern: "GET /adm/*",
          limits: [{ name: "adm-route", by: "tenant", algorithm: "gcra", limit: 5, window: "1s" }],
        },
      ],
    },
  ]);
});

describe("export and re-import", () => {
  it("JSON export re-imported changes nothing", async () => {
    const exported = await exportJson();
    expect(exported.tenants?.some((t) => t.slug === slug)).toBe(true);
    const reply = await importJson(exported);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ configVersion: null, changes: [] });
  });

  it("YAML export re-imported as YAML changes nothing", async () => {
    const exported = await call("GET", "/api/admin/config", { accept: "application/yaml" });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toMatch(/^application\/yaml/);
    const reply = await call<ImportReply>("PUT", "/api/admin/config", {
      body: exported.text,
      contentType: "application/yaml",
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ configVersion: null, changes: [] });
  });

  it("YAML and JSON exports hold the same document", async () => {
    const yaml = await call("GET", "/api/admin/config", { accept: "text/plain, application/yaml;q=0.9" });
    expect(parseYaml(yaml.text)).toEqual(await exportJson());
  });

  it("imports YAML (every YAML media type) and JSON, and the change shows in the export", async () => {
    const yamlDoc = `tenants:\n  - slug: ${slug}\n    name: Config test\n    plan: ${plan}\n    limits:\n      - { name: adm-rpm, by: tenant, algorithm: fixed_window, limit: 60, window: 1m }\n`;
    const first = await call<ImportReply>("PUT", "/api/admin/config", {
      body: yamlDoc,
      contentType: "application/x-yaml",
    });
    expect(first.status).toBe(200);
    expect(first.body.configVersion).toEqual(expect.any(Number));
    expect(first.body.changes).toEqual([{ action: "update", target: "tenant", name: slug }]);
    const again = await call<ImportReply>("PUT", "/api/admin/config", {
      body: yamlDoc,
      contentType: "text/yaml; charset=utf-8",
    });
    expect(again.body).toMatchObject({ configVersion: null, changes: [] });
    const tenant = (await exportJson()).tenants?.find((t) => t.slug === slug);
    expect(tenant?.limits).toEqual([
      { name: "adm-rpm", by: "tenant", algorithm: "fixed_window", limit: 60, window: "1m" },
    ]);
    expect(tenant?.routes).toEqual([]);
  });
});

describe("all-or-nothing", () => {
  it("answers 422 with every error and its path, and changes nothing", async () => {
    const before = await exportJson();
    const reply = await importJson({
      tenants: [
        {
          slug,
          plan,
          limits: [
            { name: "ok-limit", by: "tenant", algorithm: "gcra", limit: 1, window: "1s" },
            { name: "bad-window", by: "tenant", algorithm: "gcra", limit: 1, window: "0s" },
            { name: "bad-algo", by: "tenant", algorithm: "quantum", limit: 1, window: "1s" },
          ],
        },
        { slug: "Not A Slug", plan: "no-such-plan-adm" },
      ],
    });
    expect(reply.status).toBe(422);
    const body = reply.body as ErrorReply;
    expect(body.error.code).toBe("validation_failed");
    const paths = body.errors?.map((e) => e.path) ?? [];
    expect(paths).toEqual(
      expect.arrayContaining([
        "tenants[0].limits[1].window",
        "tenants[0].limits[2].algorithm",
        "tenants[1].slug",
        // the reference error comes in the same answer as the shape errors
        "tenants[1].plan",
      ]),
    );
    expect(paths.length).toBeGreaterThanOrEqual(3);
    for (const error of body.errors ?? []) expect(error.message.length).toBeGreaterThan(0);
    expect(await exportJson()).toEqual(before);
  });

  it("a YAML syntax error is a 422 naming the line", async () => {
    const reply = await call<ErrorReply>("PUT", "/api/admin/config", {
      body: "tenants:\n  - slug: [x\n",
      contentType: "application/yaml",
    });
    expect(reply.status).toBe(422);
    expect(reply.body.errors?.[0]?.message).toMatch(/line \d+/);
  });

  it("malformed JSON is a 422 naming the line", async () => {
    const reply = await call<ErrorReply>("PUT", "/api/admin/config", {
      body: '{"tenants": [\n}',
      contentType: "application/json",
    });
    expect(reply.status).toBe(422);
    expect(reply.body.errors?.[0]?.message).toMatch(/line/);
  });
});

describe("dry run and prune", () => {
  it("dryRun=true answers the changes and applies none", async () => {
    const before = await exportJson();
    const tenant = before.tenants?.find((t) => t.slug === slug);
    const changed = { tenants: [{ ...tenant!, name: "Renamed in a dry run" }] };
    const reply = await importJson(changed, "?dryRun=true");
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      configVersion: null,
      changes: [{ action: "update", target: "tenant", name: slug }],
    });
    expect(await exportJson()).toEqual(before);
  });

  it("prune (previewed with dryRun) would delete every unlisted tenant and deletes nothing", async () => {
    const before = await exportJson();
    const mine = before.tenants?.find((t) => t.slug === slug);
    const reply = await importJson({ tenants: [mine!] }, "?prune=true&dryRun=true");
    expect(reply.status).toBe(200);
    const deleted = reply.body.changes
      .filter((c) => c.action === "delete")
      .map((c) => c.name)
      .sort();
    const others = (before.tenants ?? [])
      .map((t) => t.slug)
      .filter((s) => s !== slug)
      .sort();
    expect(deleted).toEqual(others);
    expect(await exportJson()).toEqual(before);
  });

  it("rejects a bad flag value naming it", async () => {
    const reply = await call<ErrorReply>("PUT", "/api/admin/config?prune=maybe", { body: {} });
    expect(reply.status).toBe(400);
    expect(reply.body.error.path).toBe("prune");
  });
});

describe("bodies", () => {
  it("415 for a Content-Type that is neither JSON nor YAML", async () => {
    const reply = await call<ErrorReply>("PUT", "/api/admin/config", {
      body: "tenants: []",
      contentType: "text/plain",
    });
    expect(reply.status).toBe(415);
    expect(reply.body.error.code).toBe("unsupported_media_type");
  });

  it("413 for a document over the size limit: 2 MiB for a tenant's editor, 32 MiB for an operator", async () => {
    const editor = await createAdminToken({ name: "size editor", role: "editor", tenant: slug });
    const overMember = `# ${"x".repeat(3 * 1024 * 1024)}\n`;
    const asEditor = await call<ErrorReply>("PUT", "/api/admin/config", {
      token: editor,
      body: overMember,
      contentType: "application/yaml",
    });
    expect(asEditor.status).toBe(413);
    expect(asEditor.body.error.code).toBe("payload_too_large");
    // an operator imports whole installations: 3 MiB is read (a comment: nothing to change)
    const asOperator = await call<ImportReply>("PUT", "/api/admin/config?dryRun=true", {
      body: `${overMember}tenants: []\n`,
      contentType: "application/yaml",
    });
    expect(asOperator.status).toBe(200);
    const overOperator = await call<ErrorReply>("PUT", "/api/admin/config", {
      body: `# ${"x".repeat(33 * 1024 * 1024)}\n`,
      contentType: "application/yaml",
    });
    expect(overOperator.status).toBe(413);
    expect(overOperator.body.error.code).toBe("payload_too_large");
  });

  it("answers errors as JSON with a request id and no stack", async () => {
    const reply = await call<ErrorReply>("GET", "/api/admin/no-such-call");
    expect(reply.status).toBe(404);
    expect(reply.body.error.code).toBe("not_found");
    const bad = await call<ErrorReply>("PUT", "/api/admin/config", {
      body: "{",
      contentType: "application/json",
      headers: { "x-request-id": "adm-trace-1" },
    });
    expect(bad.headers.get("x-request-id")).toBe("adm-trace-1");
    expect(bad.text).not.toMatch(/\bat .*\.(ts|js):\d+/);
  });
});
