// The converted documents are valid Sluice documents, and a check built from a request's
// descriptor with descriptorCheck (what the gRPC server and HTTP callers send) resolves to
// the route envoy would have matched (docs/envoy-migration.md).
import { describe, expect, it } from "vitest";
import { descriptorCheck, domainSlug, type DescriptorEntry } from "@sluice/client/envoy";
import { compileSnapshot, idMapFromNames, resolveRoutes } from "@/lib/control/config/compile";
import { validateDocument, type ConfigDocument } from "@/lib/control/config/document";
import { convertFixture, PLAN } from "./fixtures";

function compiled(file: string) {
  const result = convertFixture(file);
  const validated = validateDocument({ plans: [{ name: PLAN, limits: [] }], ...result.document });
  if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
  const document: ConfigDocument = validated.document;
  return { tenant: result.tenant, snapshot: compileSnapshot(document, idMapFromNames(document), 1) };
}

const d = (...pairs: [string, string][]): DescriptorEntry[] => pairs.map(([key, value]) => ({ key, value }));

/** The tenant pattern a descriptor's check resolves to (null: none, so no limit). */
function matched(file: string, entries: DescriptorEntry[]): string | null {
  const { tenant, snapshot } = compiled(file);
  return resolveRoutes(snapshot, tenant, descriptorCheck(entries).route).tenant;
}

describe("descriptorCheck", () => {
  it("writes the route and the subject from the entries, encoded", () => {
    expect(descriptorCheck(d(["database", "users"]))).toEqual({
      route: "POST /database/users",
      subject: "/database/users",
    });
    expect(descriptorCheck(d(["path", "/a b/*"])).route).toBe("POST /path/%2Fa%20b%2F%2A");
  });

  it("sends a path past 256 characters as its SHA-256", () => {
    const check = descriptorCheck(d(["k", "v".repeat(300)]));
    expect(check.subject).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(check.route).toBe(`POST /k/${"v".repeat(300)}`);
  });

  it("makes a tenant slug of a domain", () => {
    expect(domainSlug("mongo_cps")).toBe("mongo-cps");
    expect(domainSlug("Edge.Proxy")).toBe("edge-proxy");
    expect(domainSlug("___")).toBeNull();
    expect(domainSlug("x".repeat(64))).toBeNull();
  });
});

describe("every converted example is a valid document", () => {
  for (const file of [
    "example-1.yaml",
    "example-2.yaml",
    "example-3.yaml",
    "example-4.yaml",
    "example-5.yaml",
    "example-6.yaml",
    "example-7.yaml",
    "example-8.yaml",
    "example-9.yaml",
    "example-10.yaml",
    "example-10-wildcard.yaml",
    "example-11.yaml",
    "example-11-metrics.yaml",
    "wildcard-any.yaml",
    "refused.yaml",
  ])
    it(file, () => expect(() => compiled(file)).not.toThrow());
});

describe("checks meet the routes envoy would match", () => {
  it("example 2: the nested chain and the key alone are different routes", () => {
    expect(matched("example-2.yaml", d(["message_type", "marketing"], ["to_number", "2061111111"]))).toBe(
      "* /message_type/marketing/to_number/:to_number",
    );
    expect(matched("example-2.yaml", d(["to_number", "2061111111"]))).toBe("* /to_number/:to_number");
    expect(matched("example-2.yaml", d(["message_type", "marketing"]))).toBeNull();
  });

  it("example 3: key and value before the key alone", () => {
    expect(matched("example-3.yaml", d(["remote_address", "50.0.0.5"]))).toBe("* /remote_address/50.0.0.5");
    expect(matched("example-3.yaml", d(["remote_address", "50.0.0.1"]))).toBe(
      "* /remote_address/:remote_address",
    );
  });

  it("example 4: only entries at the same depth match", () => {
    expect(matched("example-4.yaml", d(["key", "value"]))).toBeNull();
    expect(matched("example-4.yaml", d(["key", "value"], ["subkey", "subvalue"]))).toBe(
      "* /key/value/subkey/:subkey",
    );
  });

  it("a trailing wildcard matches values with its prefix, / inside them encoded alike", () => {
    expect(matched("example-9.yaml", d(["key1", "value17"]))).toBe("* /key1/value*");
    expect(matched("example-9.yaml", d(["key1", "other"]))).toBeNull();
    expect(matched("example-11.yaml", d(["files", "files/a b.txt"]))).toBe("* /files/files%2F*");
    expect(matched("example-11.yaml", d(["files", "filesa"]))).toBeNull();
  });

  it("a value with / or * matches only its own literal", () => {
    expect(matched("example-2.yaml", d(["to_number", "a/b"]))).toBe("* /to_number/:to_number");
    expect(matched("example-2.yaml", d(["to_number", "a"], ["x", "y"]))).toBeNull();
  });
});
