// PUT /api/admin/config?format=envoy against the running app: envoy ratelimit's README
// examples imported as tenants, then checks built from descriptors (descriptorCheck, what the
// gRPC server sends too) hit the imported limits: past requests_per_unit in the window they
// are denied, and a key without a value counts each value apart (docs/envoy-migration.md).
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { descriptorCheck, type DescriptorEntry, type ReportLine } from "@sluice/client/envoy";
import { decide, waitForVersion } from "../check/http";
import { anyPlan, call, uniqueSlug, type ErrorReply, type ImportReply, type Reply } from "./http";

type EnvoyReply = ImportReply &
  ErrorReply & { dryRun: boolean; envoy: { domain: string; tenant: string; report: ReportLine[] } };

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/envoy/${name}`, import.meta.url), "utf8");

function importEnvoy(
  text: string,
  query: Record<string, string>,
): Promise<Reply<EnvoyReply & { errors?: { line?: number }[] }>> {
  return call("PUT", `/api/admin/config?${new URLSearchParams({ format: "envoy", ...query })}`, {
    body: text,
    contentType: "application/yaml",
  });
}

const d = (...pairs: [string, string][]): DescriptorEntry[] => pairs.map(([key, value]) => ({ key, value }));
const checkOf = (tenant: string, entries: DescriptorEntry[]) => ({ tenant, ...descriptorCheck(entries) });

let plan = "";
beforeAll(async () => {
  plan = await anyPlan();
});

describe("PUT /api/admin/config?format=envoy", () => {
  it("imports example 2 and each number gets 5 marketing messages a day", async () => {
    const tenant = uniqueSlug("envoy2");
    const reply = await importEnvoy(fixture("example-2.yaml"), { plan, tenant });
    expect(reply.status, reply.text).toBe(200);
    // the tenant is named, so the report says which tenant the domain became
    expect(reply.body.envoy).toEqual({
      domain: "messaging",
      tenant,
      report: [{ line: 1, message: `domain "messaging" is imported as tenant "${tenant}"` }],
    });
    expect(reply.body.changes).toContainEqual({ action: "create", target: "tenant", name: tenant });
    await waitForVersion(reply.body.configVersion!);

    const marketing = (number: string) =>
      checkOf(tenant, d(["message_type", "marketing"], ["to_number", number]));
    for (let i = 0; i < 5; i++) {
      const allowed = await decide(marketing("2061111111"));
      expect(allowed.allowed, JSON.stringify(allowed)).toBe(true);
      expect(allowed.route).toBe("* /message_type/marketing/to_number/:to_number");
    }
    const denied = await decide(marketing("2061111111"));
    expect(denied.allowed).toBe(false);
    expect(denied.reason).toBe("rate_limited");
    const binding = denied.limits.find((l) => !l.allowed);
    expect(binding).toMatchObject({
      name: "per-day",
      algorithm: "fixed_window",
      limit: 5,
      windowMs: 86_400_000,
    });

    // another number has its own counter, and the chain of to_number alone is its own limit
    expect((await decide(marketing("2062222222"))).allowed).toBe(true);
    const alone = await decide(checkOf(tenant, d(["to_number", "2061111111"])));
    expect(alone.allowed).toBe(true);
    expect(alone.route).toBe("* /to_number/:to_number");
    expect(alone.limits.find((l) => l.name === "per-day")).toMatchObject({ limit: 100, remaining: 99 });
    // only the placeholder: no limit of the file applies
    const placeholder = await decide(checkOf(tenant, d(["message_type", "marketing"])));
    expect(placeholder.route).toBeNull();
  });

  it("imports example 3 with its report: the blocked address passes once, the others have their own 10", async () => {
    const reply = await importEnvoy(fixture("example-3.yaml"), { plan, tenant: uniqueSlug("envoy3") });
    expect(reply.status, reply.text).toBe(200);
    const tenant = reply.body.envoy.tenant;
    expect(reply.body.envoy.report).toEqual([
      { line: 1, message: `domain "edge_proxy_per_ip" is imported as tenant "${tenant}"` },
      {
        line: 14,
        message: "requests_per_unit: 0 (deny all): Sluice's smallest limit is 1, imported as 1 per 365 days",
      },
    ]);
    await waitForVersion(reply.body.configVersion!);
    const blocked = checkOf(tenant, d(["remote_address", "50.0.0.5"]));
    expect((await decide(blocked)).allowed).toBe(true);
    const second = await decide(blocked);
    expect(second.allowed).toBe(false);
    expect(second.limits.find((l) => !l.allowed)?.name).toBe("deny-all");
    const other = await decide(checkOf(tenant, d(["remote_address", "50.0.0.1"])));
    expect(other.allowed).toBe(true);
    expect(other.route).toBe("* /remote_address/:remote_address");
    expect(other.limits.find((l) => l.name === "per-second")).toMatchObject({ limit: 10 });
  });

  it("a dry run answers the changes and the report and changes nothing", async () => {
    const tenant = uniqueSlug("envoydry");
    const reply = await importEnvoy(fixture("example-7.yaml"), { plan, tenant, dryRun: "true" });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.dryRun).toBe(true);
    expect(reply.body.configVersion).toBeNull();
    expect(reply.body.envoy.report.map((r) => r.line)).toEqual([1, 18]);
    const exported = await call<{ tenants: { slug: string }[] }>("GET", "/api/admin/config");
    expect(exported.body.tenants.some((t) => t.slug === tenant)).toBe(false);
  });

  it("refuses what it cannot import, naming the field or the line, and changes nothing", async () => {
    const noPlan = await importEnvoy(fixture("example-1.yaml"), {});
    expect(noPlan.status).toBe(400);
    expect(noPlan.body.error.path).toBe("plan");
    const prune = await importEnvoy(fixture("example-1.yaml"), { plan, prune: "true" });
    expect(prune.status).toBe(400);
    expect(prune.body.error.path).toBe("prune");
    const planWithoutEnvoy = await call<ErrorReply>("PUT", `/api/admin/config?plan=${plan}`, { body: {} });
    expect(planWithoutEnvoy.status).toBe(400);
    expect(planWithoutEnvoy.body.error.path).toBe("plan");

    const large = await importEnvoy(`domain: big\n${"# padding\n".repeat(7_000)}`, { plan });
    expect(large.status).toBe(413);

    const noDomain = await importEnvoy("# no domain\ndescriptors: []\n", { plan });
    expect(noDomain.status).toBe(422);
    expect(noDomain.body.errors).toEqual([
      { path: "", message: "domain: required (a non-empty string)", line: 2 },
    ]);
    const unknownPlan = await importEnvoy(fixture("example-1.yaml"), {
      plan: "no-such-plan-x",
      tenant: uniqueSlug("envoyplan"),
    });
    expect(unknownPlan.status).toBe(422);
    expect(unknownPlan.body.errors?.[0]).toMatchObject({ path: "tenants[0].plan" });
  });
});
