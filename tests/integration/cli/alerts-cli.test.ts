import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdminToken } from "../admin/http";
import { closeClients, setupTenants, unique } from "../check/setup";
import { sluice } from "./run-cli";

// `sluice alerts endpoints|rules|deliveries` against the running app (docs/cli.md).

const slug = unique("cli-alr");
const other = unique("cli-alr-other");
let viewer = "";

beforeAll(async () => {
  const off = [
    { name: "tenant-rpm", disabled: true },
    { name: "key-rps", disabled: true },
    { name: "ip-per-min", disabled: true },
  ];
  await setupTenants([
    {
      slug,
      plan: "free",
      limits: [...off, { name: "cli-few", by: "tenant", algorithm: "fixed_window", limit: 3, window: "1h" }],
    },
    { slug: other, plan: "free", limits: off },
  ]);
  viewer = await createAdminToken({ name: `viewer ${slug}`, role: "viewer", tenant: slug });
}, 60_000);

afterAll(closeClients);

const t = ["--tenant", slug];

describe("sluice alerts", () => {
  it("adds an endpoint (secret once), refuses bad URLs naming the field, disables it", async () => {
    const added = await sluice(["alerts", "endpoints", "add", "hook", "https://hooks.example.com/a", ...t]);
    expect(added.code).toBe(0);
    expect(added.stdout.trim()).toMatch(/^whsec_[A-Za-z0-9_-]+$/);
    expect(added.stderr).toContain("shown only now");
    const scheme = await sluice(["alerts", "endpoints", "add", "bad", "ftp://example.com/x", ...t]);
    expect(scheme.code).toBe(2);
    expect(scheme.stderr).toMatch(/400 .*url: must start with http:\/\/ or https:\/\//);
    const garbage = await sluice(["alerts", "endpoints", "add", "bad", "not a url", ...t]);
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).toMatch(/url: must be an absolute URL/);
    const format = await sluice([
      "alerts",
      "endpoints",
      "add",
      "bad",
      "https://h.example.com",
      "--format",
      "xml",
      ...t,
    ]);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain("format: must be json or slack");
    const slack = await sluice([
      "alerts",
      "endpoints",
      "add",
      "chat",
      "https://hooks.example.com/slack",
      "--format",
      "slack",
      "--json",
      ...t,
    ]);
    expect(slack.code).toBe(0);
    expect((JSON.parse(slack.stdout) as { endpoint: { format: string } }).endpoint.format).toBe("slack");
    const listed = await sluice(["alerts", "endpoints", ...t]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^hook\thttps:\/\/hooks\.example\.com\/a\tjson\twhsec_\S*…\tactive$/m);
    expect(listed.stdout).toMatch(/^chat\t.*\tslack\t.*\tactive$/m);
    expect(listed.stdout).not.toContain("bad");
    expect((await sluice(["alerts", "endpoints", "disable", "chat", ...t])).stdout).toContain(
      `Disabled endpoint chat of tenant ${slug}.`,
    );
    expect((await sluice(["alerts", "endpoints", "list", ...t])).stdout).toMatch(/^chat\t.*\tdisabled$/m);
  }, 60_000);

  it("adds, lists and disables rules; a missing threshold names thresholdPct", async () => {
    const base = ["alerts", "rules", "add"];
    const rule = await sluice([
      ...base,
      "near",
      "--kind",
      "utilization",
      "--endpoint",
      "hook",
      "--limit",
      "cli-few",
      "--above",
      "80",
      "--for",
      "30",
      "--json",
      ...t,
    ]);
    expect(rule.code).toBe(0);
    const { id } = JSON.parse(rule.stdout) as { id: string };
    const noPct = await sluice([...base, "rej", "--kind", "rejection_rate", "--endpoint", "hook", ...t]);
    expect(noPct.code).toBe(2);
    expect(noPct.stderr).toContain("thresholdPct: is required for a rejection_rate rule");
    const badFor = await sluice([
      ...base,
      "deg",
      "--kind",
      "degraded",
      "--endpoint",
      "hook",
      "--for",
      "soon",
      ...t,
    ]);
    expect(badFor.code).toBe(2);
    expect(badFor.stderr).toContain("forSeconds");
    const noEndpoint = await sluice([...base, "deg", "--kind", "degraded", "--endpoint", "nowhere", ...t]);
    expect(noEndpoint.code).toBe(2);
    expect(noEndpoint.stderr).toContain("endpoint: no active endpoint named nowhere");
    const missing = await sluice([...base, "deg", "--endpoint", "hook", ...t]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("needs --kind");
    const listed = await sluice(["alerts", "rules", ...t]);
    expect(listed.stdout).toContain(
      `${id}\tnear\tutilization\tcli-few\tabove 80%\tfor 30s\tto hook\tevery check\tactive`,
    );
    expect(listed.stdout).not.toMatch(/\trej\t|\tdeg\t/);
    const disabled = await sluice(["alerts", "rules", "disable", id, ...t]);
    expect(disabled.code).toBe(0);
    expect((await sluice(["alerts", "rules", "list", ...t])).stdout).toMatch(
      new RegExp(`^${id}\\t.*\\tdisabled$`, "m"),
    );
    const deliveries = await sluice(["alerts", "deliveries", "--limit", "5", ...t]);
    expect(deliveries.code).toBe(0);
    expect(deliveries.stdout).toContain(`Tenant ${slug} has no alert deliveries.`);
    const badLimit = await sluice(["alerts", "deliveries", "--limit", "0", ...t]);
    expect(badLimit.code).toBe(2);
    expect(badLimit.stderr).toContain("limit");
  }, 60_000);

  it("private hosts: refused naming url, unless an operator passes --allow-private", async () => {
    const refused = await sluice(["alerts", "endpoints", "add", "local", "http://127.0.0.1:4400/", ...t]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("(409 ");
    expect(refused.stderr).toContain("url: a private, loopback or link-local host is not allowed");
    const admin = await createAdminToken({ name: `admin ${slug}`, role: "admin", tenant: slug });
    const tenantAdmin = await sluice(
      ["alerts", "endpoints", "add", "local", "http://127.0.0.1:4400/", "--allow-private", ...t],
      { SLUICE_TOKEN: admin },
    );
    expect(tenantAdmin.code).toBe(2);
    expect(tenantAdmin.stderr).toContain("(403 ");
    // The bootstrap token acts as operator.
    const allowed = await sluice([
      "alerts",
      "endpoints",
      "add",
      "local",
      "http://127.0.0.1:4400/",
      "--allow-private",
      ...t,
    ]);
    expect(allowed.code).toBe(0);
    expect((await sluice(["alerts", "endpoints", ...t])).stdout).toMatch(
      /^local\thttp:\/\/127\.0\.0\.1:4400\/\tjson\t.*\tactive\tprivate addresses allowed$/m,
    );
  }, 60_000);

  it("several bad fields are all shown, each named", async () => {
    const bad = await sluice([
      "alerts",
      "rules",
      "add",
      "multi",
      "--kind",
      "sometimes",
      "--endpoint",
      "hook",
      "--for",
      "0",
      ...t,
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("kind: must be utilization, rejection_rate or degraded");
    expect(bad.stderr).toContain("forSeconds: must be at least 1");
    expect(bad.stderr).not.toContain("kind: kind:");
  }, 60_000);

  it("a viewer reads but cannot change, and sees no other tenant", async () => {
    const as = { SLUICE_TOKEN: viewer };
    const add = await sluice(["alerts", "endpoints", "add", "mine", "https://hooks.example.com/v", ...t], as);
    expect(add.code).toBe(2);
    expect(add.stderr).toContain("(403 ");
    expect(add.stdout).toBe("");
    const rule = await sluice(
      ["alerts", "rules", "add", "v", "--kind", "degraded", "--endpoint", "hook", ...t],
      as,
    );
    expect(rule.code).toBe(2);
    expect(rule.stderr).toContain("(403 ");
    const read = await sluice(["alerts", "endpoints", ...t], as);
    expect(read.code).toBe(0);
    expect(read.stdout).toContain("hook\t");
    expect(read.stdout).not.toContain("mine");
    const foreign = await sluice(["alerts", "rules", "--tenant", other], as);
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toContain("(404 ");
  }, 60_000);

  it("refuses bad arguments before calling the server", async () => {
    const noTenant = await sluice(["alerts", "rules"]);
    expect(noTenant.code).toBe(2);
    expect(noTenant.stderr).toContain("needs --tenant");
    const badSlug = await sluice(["alerts", "rules", "--tenant", "../admin"]);
    expect(badSlug.code).toBe(2);
    expect(badSlug.stderr).toContain("--tenant");
    const unknown = await sluice(["alerts", "endpoints", "constructor", ...t]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown alerts endpoints command "constructor"');
    const badId = await sluice(["alerts", "rules", "disable", "../../x", ...t]);
    expect(badId.code).toBe(2);
    expect(badId.stderr).toContain("needs a rule ID");
    const extra = await sluice(["alerts", "endpoints", "add", "a", "https://x.example.com", "more", ...t]);
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain('Unexpected argument "more"');
  }, 60_000);
});
