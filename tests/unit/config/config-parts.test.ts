import { describe, expect, it } from "vitest";
import type { CompiledTenant } from "@/lib/control/config/compile";
import { assemblePublished, keyScope, splitPublished, tenantScope } from "@/lib/check/published/parts";
import type { PublishedConfig, PublishedOverride } from "@/lib/check/published/published";
import { ConfigState, buildIndex } from "@/lib/check/config-state";
import { compiledLimit } from "../enforce/fixtures";

// A published configuration cut into parts and put back together is the same configuration,
// and a server that applies changes part by part ends where one that loads the whole does.

const T0 = Date.UTC(2026, 10, 28, 12, 0, 0);

function tenant(slug: string, id: string, keys: Array<[string, string, boolean]>): CompiledTenant {
  const set = { unrouted: [compiledLimit(`${slug}-per-tenant`, "tenant")], routed: {} };
  return {
    id,
    slug,
    name: slug,
    plan: "free",
    status: "active",
    routes: ["GET /a"],
    limits: set,
    keyDefault: set,
    keys: Object.fromEntries(
      keys.map(([name, keyId, own]) => [name, { id: keyId, name, limits: own ? set : null }]),
    ),
    keyNameById: Object.fromEntries(keys.map(([name, keyId]) => [keyId, name])),
    service: null,
  };
}

const override: PublishedOverride = {
  id: "o1",
  tenant: "acme",
  key: "backend",
  subject: null,
  limit: "acme-per-tenant",
  value: 0,
  startsAt: T0,
  endsAt: T0 + 60_000,
};

function config(version: number, tenants: CompiledTenant[], withOverride = true): PublishedConfig {
  const keys: PublishedConfig["keys"] = {};
  for (const t of tenants)
    for (const key of Object.values(t.keys))
      keys[`hash-${t.slug}-${key.name}`] = {
        tenant: t.slug,
        name: key.name,
        expiresAt: null,
        revoked: false,
      };
  return {
    version,
    snapshot: {
      format: 1,
      version,
      routes: ["POST /g"],
      tenants: Object.fromEntries(tenants.map((t) => [t.slug, t])),
      tenantSlugById: Object.fromEntries(tenants.map((t) => [t.id, t.slug])),
    },
    keys,
    serviceTokens: { tokenhash: { id: "s1", tenants: null } },
    ...(withOverride ? { overrides: [override] } : {}),
  };
}

const acme = tenant("acme", "T1", [
  ["backend", "K1", false],
  ["mobile", "K2", true],
]);
const beta = tenant("beta", "T2", [["only", "K3", false]]);

describe("config parts", () => {
  it("split then assembled gives the configuration back", () => {
    const whole = config(7, [acme, beta]);
    expect(assemblePublished(7, splitPublished(whole))).toEqual(whole);
  });

  it("keeps a bare key out of its tenant's part: a new key is one small part", () => {
    const parts = splitPublished(config(7, [acme, beta]));
    const part = parts.get(tenantScope("acme"));
    expect(part?.kind === "tenant" && Object.keys(part.tenant.keys)).toEqual(["mobile"]);
    // keyDefault without `by: key` limits is made again on arrival, not shipped
    expect(part?.kind === "tenant" && "limits" in part.tenant).toBe(false);
    const key = parts.get(keyScope("hash-acme-backend"));
    expect(key).toMatchObject({ kind: "key", id: "K1", tenant: "acme", name: "backend" });
    expect(JSON.stringify(key).length).toBeLessThan(200);
  });

  it("applied change by change, a state ends where a whole load of the final version does", () => {
    const state = new ConfigState();
    state.apply(splitPublished(config(1, [acme, beta])), 1, T0 + 1);
    const grown = tenant("acme", "T1", [
      ["backend", "K1", false],
      ["mobile", "K2", true],
      ["new", "K4", false],
    ]);
    const final = config(3, [grown]);
    // version 2: a key added; version 3: beta removed with its key
    const touched = state.apply(
      [[keyScope("hash-acme-new"), splitPublished(final).get(keyScope("hash-acme-new")) ?? null]],
      2,
      T0 + 1,
    );
    expect(touched).toEqual(new Set(["acme"]));
    state.apply(
      [
        [tenantScope("beta"), null],
        [keyScope("hash-beta-only"), null],
      ],
      3,
      T0 + 1,
    );
    const whole = buildIndex(final, T0 + 1);
    expect(state.current.snapshot).toEqual(whole.snapshot);
    expect([...state.current.keysByHash]).toEqual(expect.arrayContaining([...whole.keysByHash]));
    expect(state.current.keysByHash.size).toBe(whole.keysByHash.size);
    expect(state.current.keysByName.has("beta only")).toBe(false);
    expect(state.current.nextChangeAt).toBe(T0 + 60_000);
    // the override blocks acme's backend key in force, and is gone once re-applied after its end
    expect(state.current.snapshot.tenants.acme?.keys.backend?.limits?.unrouted[0]?.override?.blocked).toBe(
      true,
    );
    state.reapplyOverrides(T0 + 60_000);
    expect(state.current.snapshot.tenants.acme?.keys.backend?.limits).toBeNull();
    expect(state.current.nextChangeAt).toBeNull();
  });

  it("a change of the global part reports every tenant as possibly touched", () => {
    const state = new ConfigState();
    state.apply(splitPublished(config(1, [acme])), 1, T0);
    const global = splitPublished(config(2, [acme], false)).get("g") ?? null;
    expect(state.apply([["g", global]], 2, T0)).toBeNull();
    expect(state.current.serviceTokens.get("tokenhash")).toEqual({ id: "s1", tenants: null });
    expect(state.current.version).toBe(2);
  });
});
