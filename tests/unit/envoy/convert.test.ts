// The converter on every example of envoyproxy/ratelimit's README: the routes and limits it
// writes and the lines it reports (docs/envoy-migration.md).
import { describe, expect, it } from "vitest";
import { convertEnvoyConfig } from "@sluice/client/envoy";
import { convertFixture, envoyFixture, fw, PLAN } from "./fixtures";

type Expected = {
  routes: { pattern: string; limits: object[] }[];
  report: [number, string][];
  tenant?: string;
};

const examples: Record<string, Expected> = {
  "example-1.yaml": {
    tenant: "mongo-cps",
    routes: [
      { pattern: "* /database/users", limits: [fw(500, "1s")] },
      { pattern: "* /database/default", limits: [fw(500, "1s")] },
    ],
    report: [[1, 'domain "mongo_cps" is imported as tenant "mongo-cps"']],
  },
  "example-2.yaml": {
    routes: [
      { pattern: "* /message_type/marketing/to_number/:to_number", limits: [fw(5, "1d")] },
      { pattern: "* /to_number/:to_number", limits: [fw(100, "1d")] },
    ],
    report: [],
  },
  "example-3.yaml": {
    tenant: "edge-proxy-per-ip",
    routes: [
      { pattern: "* /remote_address/:remote_address", limits: [fw(10, "1s")] },
      {
        pattern: "* /remote_address/50.0.0.5",
        limits: [{ ...fw(1, "1s"), name: "deny-all", window: "365d" }],
      },
    ],
    report: [
      [1, 'domain "edge_proxy_per_ip" is imported as tenant "edge-proxy-per-ip"'],
      [14, "requests_per_unit: 0 (deny all): Sluice's smallest limit is 1, imported as 1 per 365 days"],
    ],
  },
  "example-4.yaml": {
    routes: [{ pattern: "* /key/value/subkey/:subkey", limits: [fw(300, "1s")] }],
    report: [],
  },
  "example-5.yaml": {
    routes: [
      { pattern: "* /ldap/:ldap", limits: [] },
      { pattern: "* /azure/:azure", limits: [fw(100, "1m")] },
    ],
    report: [],
  },
  "example-6.yaml": {
    routes: [
      { pattern: "* /service/:service/user/user-a", limits: [fw(10, "1s", { mode: "shadow" })] },
      { pattern: "* /service/:service/user/user-b", limits: [fw(20, "1s")] },
    ],
    report: [],
  },
  "example-7.yaml": {
    routes: [
      { pattern: "* /key_1/value_1/user/bkthomps", limits: [{ ...fw(5, "1s"), name: "specific-limit" }] },
      { pattern: "* /key_2/value_2/user/bkthomps", limits: [fw(10, "1s")] },
    ],
    report: [
      [
        18,
        'replaces "specific_limit": not carried over (Sluice has no limit that drops another), both limits apply',
      ],
    ],
  },
  "example-8.yaml": {
    routes: [
      { pattern: "* /key1/:key1", limits: [fw(10, "1m")] },
      { pattern: "* /key1/value1", limits: [fw(20, "1m")] },
    ],
    report: [[4, "detailed_metric: metrics only, ignored (Sluice records usage per tenant, key and route)"]],
  },
  "example-9.yaml": {
    routes: [{ pattern: "* /key1/value*", limits: [fw(20, "1m")] }],
    report: [
      [11, 'value "/api/*/action" has a wildcard inside it'],
      [17, 'value "/api/*/resource/*/action" has a wildcard inside it'],
    ],
  },
  "example-10.yaml": {
    routes: [
      { pattern: "* /route/:route/http_method/:http_method/subject_id/:subject_id", limits: [fw(60, "1m")] },
    ],
    report: [
      [4, "value_to_metric: metrics only, ignored"],
      [7, "value_to_metric: metrics only, ignored"],
    ],
  },
  "example-10-wildcard.yaml": {
    tenant: "example10-wildcard",
    routes: [{ pattern: "* /user/:user/action/read*/resource/:resource", limits: [fw(100, "1m")] }],
    report: [
      [1, 'domain "example10_wildcard" is imported as tenant "example10-wildcard"'],
      [4, "value_to_metric: metrics only, ignored"],
      [8, "value_to_metric: metrics only, ignored"],
    ],
  },
  "example-11.yaml": {
    // share_threshold: one counter for every file (by tenant), else one per file
    routes: [
      { pattern: "* /files/files%2F*", limits: [{ ...fw(10, "1h"), by: "tenant" }] },
      { pattern: "* /files_no_share/files_no_share%2F*", limits: [fw(10, "1h")] },
    ],
    report: [],
  },
  "example-11-metrics.yaml": {
    tenant: "example11-metrics",
    routes: [{ pattern: "* /route/api%2F*/method/:method", limits: [fw(60, "1m")] }],
    report: [
      [1, 'domain "example11_metrics" is imported as tenant "example11-metrics"'],
      [6, "value_to_metric: metrics only, ignored"],
    ],
  },
  "wildcard-any.yaml": {
    routes: [
      { pattern: "* /tenant_id/:tenant_id", limits: [{ ...fw(3, "1m"), by: "tenant" }] },
      { pattern: "* /user/:user", limits: [{ ...fw(2, "1h"), name: "per-user" }] },
    ],
    report: [],
  },
  "refused.yaml": {
    routes: [
      { pattern: "* /big/:big", limits: [fw(1_000_000_000, "7d")] },
      { pattern: "* /extra/:extra", limits: [fw(7, "30d")] },
    ],
    report: [
      [2, 'unknown field "colour": not imported (envoy refuses the file)'],
      [4, "a descriptor without key: not imported, with the descriptors below it"],
      [7, "quota_mode: not carried over"],
      [8, "metadata: not carried over"],
      [11, 'unit "fortnight": not a unit (second, minute, hour, day, week, month, year); not imported'],
      [13, 'duplicate of the descriptor on line 5 ("plan_gold"): not imported (envoy refuses the file)'],
      [18, "requests_per_unit: 4000000000 is past Sluice's largest limit, imported as 1000000000"],
      [22, "unlimited with a unit: not imported (envoy refuses the file)"],
      [27, 'unknown field "burst": not imported (envoy refuses the file)'],
    ],
  },
};

describe("convertEnvoyConfig on envoy's documented examples", () => {
  for (const [file, expected] of Object.entries(examples)) {
    it(file, () => {
      const result = convertFixture(file);
      const domain = /^domain: (.+)$/m.exec(envoyFixture(file))![1]!;
      const tenant = expected.tenant ?? domain;
      expect(result.tenant).toBe(tenant);
      expect(result.domain).toBe(domain);
      expect(result.document).toEqual({
        tenants: [{ slug: tenant, name: domain, plan: PLAN, routes: expected.routes }],
      });
      expect(result.report.map((r) => r.line)).toEqual(expected.report.map(([line]) => line));
      result.report.forEach((line, i) => expect(line.message).toContain(expected.report[i]![1]));
    });
  }
});

describe("convertEnvoyConfig on files it cannot convert", () => {
  it("a file without a domain is an error at its line", () => {
    expect(convertEnvoyConfig("descriptors: []\n", { plan: PLAN })).toEqual({
      ok: false,
      errors: [{ line: 1, message: "domain: required (a non-empty string)" }],
    });
  });

  it("a YAML syntax error names its line", () => {
    const result = convertEnvoyConfig("domain: x\ndescriptors:\n  - key: a\n   value: [\n", { plan: PLAN });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]!.line).toBeGreaterThanOrEqual(3);
  });

  it("a domain that makes no slug needs a tenant, and a named tenant is used as given", () => {
    const text = "domain: ___\ndescriptors: []\n";
    const refused = convertEnvoyConfig(text, { plan: PLAN });
    expect(refused.ok).toBe(false);
    const named = convertEnvoyConfig(text, { plan: PLAN, tenant: "edge" });
    expect(named.ok && named.document.tenants[0].slug).toBe("edge");
  });

  it("keeps a number written as a value as it is written, and encodes a value's / and spaces", () => {
    const text = "domain: d\ndescriptors:\n  - key: v\n    value: 1.0\n  - key: path\n    value: a/b c\n";
    const result = convertEnvoyConfig(text, { plan: PLAN });
    expect(result.ok && result.document.tenants[0].routes.map((r) => r.pattern)).toEqual([
      "* /v/1.0",
      "* /path/a%2Fb%20c",
    ]);
  });
});
