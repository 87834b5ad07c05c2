// The document example of docs/configuration.md validates and compiles to the effective sets a reader
// of docs/configuration.md expects.

import { describe, expect, it } from "vitest";

import {
  compileSnapshot,
  effectiveLimits,
  resolveRoute,
  resolveRoutes,
  type CompiledLimit,
  type IdMap,
  type Snapshot,
} from "@/lib/control/config/compile";

import { fixtureDocument } from "./load-document";

const ids: IdMap = {
  tenants: { acme: "tn_acme" },
  keys: { acme: { backend: "ky_backend", mobile: "ky_mobile" } },
};
const snapshot: Snapshot = compileSnapshot(fixtureDocument("example.yaml"), ids, 17);

const tenantRpm: CompiledLimit = {
  id: "p:free:tenant-rpm",
  name: "tenant-rpm",
  level: "tenant",
  by: "tenant",
  route: null,
  rule: {
    algorithm: "sliding_window",
    limit: 5000,
    windowMs: 60_000,
    burst: null,
    action: "reject",
    maxDelayMs: null,
    mode: "enforce",
    onStoreFailure: "open",
  },
  provenance: [
    { level: "plan", source: "plan free", fields: ["by", "algorithm", "limit", "window"] },
    { level: "tenant", source: "tenant acme", fields: ["limit"] },
  ],
};
const backendKeyRps: CompiledLimit = {
  id: "p:free:key-rps",
  name: "key-rps",
  level: "key",
  by: "key",
  route: null,
  rule: {
    algorithm: "token_bucket",
    limit: 100,
    windowMs: 1_000,
    burst: 200,
    action: "reject",
    maxDelayMs: null,
    mode: "enforce",
    onStoreFailure: "open",
  },
  provenance: [
    { level: "plan", source: "plan free", fields: ["by", "algorithm", "limit", "window", "burst"] },
    { level: "key", source: "key backend", fields: ["limit", "burst"] },
  ],
};
const search: CompiledLimit = {
  id: "r:global:POST /v1/search:search",
  name: "search",
  level: "route",
  by: "key",
  route: "POST /v1/search",
  rule: {
    algorithm: "gcra",
    limit: 5,
    windowMs: 1_000,
    burst: null,
    action: "reject",
    maxDelayMs: null,
    mode: "enforce",
    onStoreFailure: "open",
  },
  provenance: [
    { level: "route", source: "route POST /v1/search", fields: ["by", "algorithm", "limit", "window"] },
  ],
};
const reports: CompiledLimit = {
  id: "r:tenant:GET /v1/reports/*:reports",
  name: "reports",
  level: "route",
  by: "tenant",
  route: "GET /v1/reports/*",
  rule: {
    algorithm: "fixed_window",
    limit: 100,
    windowMs: 3_600_000,
    burst: null,
    action: "reject",
    maxDelayMs: null,
    mode: "enforce",
    onStoreFailure: "open",
  },
  provenance: [
    {
      level: "route",
      source: "tenant acme route GET /v1/reports/*",
      fields: ["by", "algorithm", "limit", "window"],
    },
  ],
};

function effectiveFor(key: string | null, route: string | null): CompiledLimit[] {
  return effectiveLimits(snapshot, "acme", key, resolveRoutes(snapshot, "acme", route));
}

describe("docs/configuration.md example", () => {
  it("compiles the tenant's identity, routes and ids", () => {
    const acme = snapshot.tenants.acme;
    expect(snapshot.version).toBe(17);
    expect(snapshot.routes).toEqual(["POST /v1/search"]);
    expect(snapshot.tenantSlugById).toEqual({ tn_acme: "acme" });
    expect(acme).toMatchObject({
      id: "tn_acme",
      slug: "acme",
      name: "Acme Corp",
      plan: "free",
      status: "active",
    });
    expect(acme?.routes).toEqual(["GET /v1/reports/*"]);
    expect(acme?.keyNameById).toEqual({ ky_backend: "backend", ky_mobile: "mobile" });
    expect(acme?.keys.mobile?.limits).toBeNull();
  });

  it("backend, POST /v1/search: tenant-rpm (tenant override), key-rps (key override), search (global route)", () => {
    expect(resolveRoute(snapshot, "acme", "POST /v1/search")).toBe("POST /v1/search");
    expect(effectiveFor("backend", "POST /v1/search")).toEqual([tenantRpm, backendKeyRps, search]);
  });

  it("backend, GET /v1/reports/2024/q1: the tenant's reports route limit applies", () => {
    expect(resolveRoute(snapshot, "acme", "GET /v1/reports/2024/q1")).toBe("GET /v1/reports/*");
    expect(effectiveFor("backend", "GET /v1/reports/2024/q1")).toEqual([tenantRpm, backendKeyRps, reports]);
  });

  it("backend, no route: only the limits without a route", () => {
    expect(effectiveFor("backend", null)).toEqual([tenantRpm, backendKeyRps]);
    expect(effectiveFor("backend", "GET /v1/unknown")).toEqual([tenantRpm, backendKeyRps]);
  });

  it("another key gets the plan's key-rps, under the same identity", () => {
    const [, keyRps] = effectiveFor("mobile", null);
    expect(keyRps).toMatchObject({ id: "p:free:key-rps", level: "plan", rule: { limit: 10, burst: 20 } });
    expect(effectiveFor("never-heard-of", null).map((l) => l.name)).toEqual(["tenant-rpm", "key-rps"]);
  });

  it("no key: by: key limits have nothing to count and are left out", () => {
    expect(effectiveFor(null, "POST /v1/search")).toEqual([tenantRpm]);
    expect(effectiveFor(null, "GET /v1/reports/x")).toEqual([tenantRpm, reports]);
  });

  it("an unknown tenant has no limits and no route", () => {
    expect(effectiveLimits(snapshot, "nobody", null, null)).toEqual([]);
    expect(resolveRoute(snapshot, "nobody", "POST /v1/search")).toBeNull();
  });

  it("is plain JSON: it survives publishing unchanged", () => {
    const copy = JSON.parse(JSON.stringify(snapshot)) as Snapshot;
    expect(copy).toEqual(snapshot);
    expect(effectiveLimits(copy, "acme", "backend", { global: "POST /v1/search", tenant: null })).toEqual([
      tenantRpm,
      backendKeyRps,
      search,
    ]);
  });

  it("refuses to compile without ids for what the document names", () => {
    expect(() => compileSnapshot(fixtureDocument("example.yaml"), { tenants: {}, keys: {} }, 1)).toThrow(
      /tenant "acme"/,
    );
    expect(() =>
      compileSnapshot(fixtureDocument("example.yaml"), { tenants: { acme: "t" }, keys: {} }, 1),
    ).toThrow(/key "backend"/);
  });
});
