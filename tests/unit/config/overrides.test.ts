// Inheritance as docs/configuration.md describes it: field by field, disabled, route limits and the
// overrides of them, and identity kept across overrides.

import { describe, expect, it } from "vitest";

import {
  compileSnapshot,
  effectiveLimits,
  formatProvenance,
  idMapFromNames,
  resolveRoutes,
} from "@/lib/control/config/compile";

import { documentFromYaml } from "./load-document";

const DOC = `
plans:
  - name: pro
    limits:
      - { name: tenant-rpm, by: tenant, algorithm: gcra, limit: 1000, window: 1m, burst: 50, action: delay, maxDelay: 2s, mode: shadow, onStoreFailure: closed }
      - { name: key-rps, by: key, algorithm: token_bucket, limit: 10, window: 1s }
      - { name: per-ip, by: subject, algorithm: sliding_log, limit: 5, window: 1s }
      - { name: search-daily, by: tenant, algorithm: fixed_window, limit: 10000, window: 1d, route: "POST /v1/search" }
routes:
  - pattern: "POST /v1/search"
    limits:
      - { name: search, by: key, algorithm: gcra, limit: 5, window: 1s }
      - { name: heavy, by: tenant, algorithm: leaky_bucket, limit: 2, window: 1s }
  - pattern: "GET /v1/items/:id"
    limits:
      - { name: heavy, by: tenant, algorithm: leaky_bucket, limit: 20, window: 1s }
tenants:
  - slug: acme
    plan: pro
    limits:
      - { name: tenant-rpm, limit: 2000, action: reject }
      - { name: per-ip, disabled: true }
      - { name: heavy, mode: shadow }
      - { name: own, by: tenant, algorithm: sliding_window, limit: 7, window: 10s, route: "GET /v1/items/:id" }
    routes:
      - pattern: "POST /v1/search"
        limits:
          - { name: search, limit: 3 }
    keys:
      - name: backend
        limits:
          - { name: per-ip, disabled: false, limit: 50 }
          - { name: key-rps, disabled: true }
          - { name: batch, by: key, algorithm: gcra, limit: 1, windowMs: 500, action: delay }
          - { name: search-daily, route: "GET /v1/items/:id" }
      - name: reader
  - slug: beta
    name: Beta Ltd
    plan: pro
    status: suspended
`;

const document = documentFromYaml(DOC);
const snapshot = compileSnapshot(document, idMapFromNames(document), 3);

function names(key: string | null, route: string | null, tenant = "acme"): string[] {
  return effectiveLimits(snapshot, tenant, key, resolveRoutes(snapshot, tenant, route)).map(
    (limit) => limit.name,
  );
}
function limitOf(name: string, key: string | null, route: string | null, tenant = "acme") {
  const found = effectiveLimits(snapshot, tenant, key, resolveRoutes(snapshot, tenant, route)).find(
    (l) => l.name === name,
  );
  if (!found) throw new Error(`no ${name}`);
  return found;
}

describe("overrides", () => {
  it("merge field by field: unset fields inherit, a maxDelay left over from delay is dropped", () => {
    expect(limitOf("tenant-rpm", null, null)).toMatchObject({
      id: "p:pro:tenant-rpm",
      level: "tenant",
      rule: {
        algorithm: "gcra",
        limit: 2000,
        windowMs: 60_000,
        burst: 50,
        action: "reject",
        maxDelayMs: null,
        mode: "shadow",
        onStoreFailure: "closed",
      },
    });
    expect(limitOf("tenant-rpm", null, null, "beta")).toMatchObject({
      level: "plan",
      rule: { limit: 1000, action: "delay", maxDelayMs: 2000 },
    });
  });

  it("disabled removes a limit for the tenant, and a key may switch it back on with its own values", () => {
    expect(names(null, null)).not.toContain("per-ip");
    expect(names("reader", null)).not.toContain("per-ip");
    expect(limitOf("per-ip", "backend", null)).toMatchObject({
      id: "p:pro:per-ip",
      level: "key",
      rule: { limit: 50 },
    });
    expect(names("backend", null)).not.toContain("key-rps");
    expect(names("reader", null)).toContain("key-rps");
  });

  it("a tenant limit overrides a global route limit of that name on every route it sits on", () => {
    const onSearch = limitOf("heavy", null, "POST /v1/search");
    const onItems = limitOf("heavy", null, "GET /v1/items/7");
    expect(onSearch).toMatchObject({
      id: "r:global:POST /v1/search:heavy",
      level: "tenant",
      route: "POST /v1/search",
      rule: { limit: 2, mode: "shadow" },
    });
    expect(onItems).toMatchObject({
      id: "r:global:GET /v1/items/:id:heavy",
      level: "tenant",
      rule: { limit: 20, mode: "shadow" },
    });
    expect(limitOf("heavy", null, "POST /v1/search", "beta").rule.mode).toBe("enforce");
  });

  it("a tenant route redeclaring a global pattern overrides its same-name limits", () => {
    expect(limitOf("search", "reader", "POST /v1/search")).toMatchObject({
      id: "r:global:POST /v1/search:search",
      level: "route",
      rule: { algorithm: "gcra", limit: 3 },
    });
    expect(limitOf("search", "reader", "POST /v1/search", "beta").rule.limit).toBe(5);
  });

  it("limits elsewhere whose route field names a pattern join that route's set", () => {
    expect(names("reader", "POST /v1/search")).toEqual([
      "tenant-rpm",
      "key-rps",
      "search-daily",
      "search",
      "heavy",
    ]);
    expect(names("reader", "GET /v1/items/1")).toEqual(["tenant-rpm", "key-rps", "heavy", "own"]);
    expect(limitOf("own", null, "GET /v1/items/1")).toMatchObject({
      id: "t:own",
      level: "tenant",
      route: "GET /v1/items/:id",
    });
  });

  it("an override may move a limit to another route; its identity stays", () => {
    expect(names("backend", "POST /v1/search")).not.toContain("search-daily");
    expect(limitOf("search-daily", "backend", "GET /v1/items/1")).toMatchObject({
      id: "p:pro:search-daily",
      route: "GET /v1/items/:id",
      level: "key",
    });
  });

  it("a new key limit is named after the key's id; defaults fill what nobody set", () => {
    expect(limitOf("batch", "backend", null)).toMatchObject({
      id: "k:backend:batch",
      level: "key",
      rule: {
        algorithm: "gcra",
        limit: 1,
        windowMs: 500,
        burst: null,
        action: "delay",
        maxDelayMs: null,
        mode: "enforce",
        onStoreFailure: "open",
      },
    });
  });

  it("keeps status, display name defaults, and provenance a person can read", () => {
    expect(snapshot.tenants.beta).toMatchObject({ status: "suspended", name: "Beta Ltd" });
    expect(snapshot.tenants.acme?.name).toBe("acme");
    expect(formatProvenance(limitOf("per-ip", "backend", null).provenance)).toBe(
      "plan pro: by, algorithm, limit, window; tenant acme: disabled; key backend: limit, disabled",
    );
  });
});
