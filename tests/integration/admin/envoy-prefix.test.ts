// An envoy file with trailing-wildcard values (`value: read*`) imported through
// PUT /api/admin/config?format=envoy, then checks built from descriptors: values with the
// prefix are limited, each with its own counter (or one shared with share_threshold), a
// literal value beats the prefix, and values without the prefix match no route.
import { beforeAll, describe, expect, it } from "vitest";
import { descriptorCheck, type ReportLine } from "@sluice/client/envoy";
import { decide, waitForVersion } from "../check/http";
import { anyPlan, call, uniqueSlug, type ImportReply } from "./http";

const FILE = `domain: prefixes
descriptors:
  - key: action
    value: read*
    rate_limit:
      unit: hour
      requests_per_unit: 2
  - key: action
    value: readme
    rate_limit:
      unit: hour
      requests_per_unit: 5
  - key: file
    value: shared/*
    share_threshold: true
    rate_limit:
      unit: hour
      requests_per_unit: 2
  - key: path
    value: /api/*/action
    rate_limit:
      unit: hour
      requests_per_unit: 1
`;

type EnvoyReply = ImportReply & { envoy: { tenant: string; report: ReportLine[] } };

let tenant = "";
beforeAll(async () => {
  const plan = await anyPlan();
  const query = new URLSearchParams({ format: "envoy", plan, tenant: uniqueSlug("envoypre") });
  const reply = await call<EnvoyReply>("PUT", `/api/admin/config?${query}`, {
    body: FILE,
    contentType: "application/yaml",
  });
  expect(reply.status, reply.text).toBe(200);
  tenant = reply.body.envoy.tenant;
  // only the wildcard inside a value is reported (and the domain's tenant)
  expect(reply.body.envoy.report.map((r) => r.line)).toEqual([1, 20]);
  expect(reply.body.envoy.report[1]!.message).toContain('value "/api/*/action" has a wildcard inside it');
  await waitForVersion(reply.body.configVersion!);
});

const check = (key: string, value: string) => ({ tenant, ...descriptorCheck([{ key, value }]) });

describe("envoy prefix values imported as prefix segments", () => {
  it("limits each value with the prefix on its own counter", async () => {
    for (let i = 0; i < 2; i++) {
      const allowed = await decide(check("action", "reading"));
      expect(allowed.allowed, JSON.stringify(allowed)).toBe(true);
      expect(allowed.route).toBe("* /action/read*");
    }
    const denied = await decide(check("action", "reading"));
    expect(denied.allowed).toBe(false);
    expect(denied.limits.find((l) => !l.allowed)).toMatchObject({ limit: 2, windowMs: 3_600_000 });
    // another value with the prefix, and the prefix itself, count apart
    const other = await decide(check("action", "reader"));
    expect(other.allowed).toBe(true);
    expect(other.limits.find((l) => l.limit === 2)).toMatchObject({ remaining: 1 });
    expect((await decide(check("action", "read"))).route).toBe("* /action/read*");
  });

  it("lets a literal value beat the prefix and leaves other values unlimited", async () => {
    const readme = await decide(check("action", "readme"));
    expect(readme.route).toBe("* /action/readme");
    expect(readme.limits.find((l) => l.limit === 5)).toMatchObject({ remaining: 4 });
    for (let i = 0; i < 4; i++) {
      const write = await decide(check("action", "write"));
      expect(write.allowed).toBe(true);
      expect(write.route).toBeNull();
    }
    expect((await decide(check("action", "xread"))).route).toBeNull();
  });

  it("shares one counter among the prefix's values with share_threshold", async () => {
    expect((await decide(check("file", "shared/a"))).allowed).toBe(true);
    const second = await decide(check("file", "shared/b"));
    expect(second.allowed).toBe(true);
    expect(second.route).toBe("* /file/shared%2F*");
    expect((await decide(check("file", "shared/c"))).allowed).toBe(false);
    expect((await decide(check("file", "private/a"))).route).toBeNull();
  });
});
