// Operators' limits hold: a tenant's route declarations never remove limits an operator set on a
// global route. The global and the tenant's routes resolve separately and both apply.

import { describe, expect, it } from "vitest";

import {
  compileSnapshot,
  effectiveLimits,
  idMapFromNames,
  resolveRoute,
  resolveRoutes,
} from "@/lib/control/config/compile";

import { documentFromYaml } from "../config/load-document";

const DOC = `
plans:
  - name: free
    limits:
      - { name: tenant-rpm, by: tenant, algorithm: sliding_window, limit: 1000, window: 1m }
routes:
  - pattern: "* /v1/admin/*"
    limits:
      - { name: admin-calls, by: tenant, algorithm: fixed_window, limit: 10, window: 1h }
  - pattern: "GET /v1/items/:id"
    limits:
      - { name: item-reads, by: tenant, algorithm: gcra, limit: 5, window: 1s }
tenants:
  - slug: wild
    plan: free
    routes:
      - pattern: "GET /v1/admin/*"
  - slug: param
    plan: free
    routes:
      - pattern: "GET /v1/admin/:x"
  - slug: adds
    plan: free
    routes:
      - pattern: "GET /v1/admin/users"
        limits:
          - { name: users, by: tenant, algorithm: fixed_window, limit: 3, window: 1m }
      - pattern: "GET /v1/items/:id"
        limits:
          - { name: own-items, by: tenant, algorithm: fixed_window, limit: 7, window: 1m }
  - slug: plain
    plan: free
`;

const document = documentFromYaml(DOC);
const snapshot = compileSnapshot(document, idMapFromNames(document), 1);

function names(tenant: string, route: string): string[] {
  return effectiveLimits(snapshot, tenant, null, resolveRoutes(snapshot, tenant, route)).map((l) => l.name);
}

describe("route resolution: global and tenant routes apply together", () => {
  it("a tenant route GET /v1/admin/* with no limits keeps the global admin-calls", () => {
    expect(resolveRoutes(snapshot, "wild", "GET /v1/admin/users")).toEqual({
      global: "* /v1/admin/*",
      tenant: "GET /v1/admin/*",
    });
    expect(names("wild", "GET /v1/admin/users")).toEqual(["tenant-rpm", "admin-calls"]);
  });

  it("so does a tenant route GET /v1/admin/:x", () => {
    expect(names("param", "GET /v1/admin/users")).toEqual(["tenant-rpm", "admin-calls"]);
    expect(names("param", "GET /v1/admin/users?x=1")).toEqual(["tenant-rpm", "admin-calls"]);
  });

  it("a tenant route adds its limits to the global route's", () => {
    expect(names("adds", "GET /v1/admin/users")).toEqual(["tenant-rpm", "admin-calls", "users"]);
    expect(names("adds", "GET /v1/items/42")).toEqual(["tenant-rpm", "item-reads", "own-items"]);
  });

  it("the answer names the tenant's pattern when one matched, else the global one", () => {
    expect(resolveRoute(snapshot, "wild", "GET /v1/admin/users")).toBe("GET /v1/admin/*");
    expect(resolveRoute(snapshot, "wild", "POST /v1/admin/users")).toBe("* /v1/admin/*");
    expect(resolveRoute(snapshot, "plain", "GET /v1/admin/users")).toBe("* /v1/admin/*");
    expect(resolveRoute(snapshot, "plain", "GET /v1/other")).toBeNull();
  });

  it("a method the tenant route does not cover resolves to the global route only", () => {
    expect(resolveRoutes(snapshot, "wild", "POST /v1/admin/users")).toEqual({
      global: "* /v1/admin/*",
      tenant: null,
    });
    expect(names("wild", "POST /v1/admin/users")).toEqual(["tenant-rpm", "admin-calls"]);
  });
});
