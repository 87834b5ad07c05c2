import { describe, expect, it } from "vitest";
import type { CompiledTenant } from "@/lib/control/config/compile";
import { assemblePublished, keyScope, splitPublished } from "@/lib/check/published/parts";
import type { PartChange } from "@/lib/check/published/parts";
import type { PublishedConfig, PublishedKey } from "@/lib/check/published/published";
import { ConfigState, buildIndex } from "@/lib/check/config-state";
import { keyProblem } from "@/lib/check/resolve";
import { compiledLimit } from "../enforce/fixtures";

// A key rotation as servers take it in: the key's part moves from the old secret's hash to
// the new one's, naming the old hash as `previous`. Whatever order the version lists the two
// parts in, both secrets resolve to the same key (same id: same counters) until the grace
// ends, then the old one is revoked; the key's name resolves to the new record.

const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);
const GRACE_END = T0 + 60_000;

const acme: CompiledTenant = {
  id: "T1",
  slug: "acme",
  name: "acme",
  plan: "free",
  status: "active",
  routes: [],
  limits: { unrouted: [compiledLimit("acme-per-key", "key")], routed: {} },
  keyDefault: { unrouted: [compiledLimit("acme-per-key", "key")], routed: {} },
  keys: { backend: { id: "K1", name: "backend", limits: null } },
  keyNameById: { K1: "backend" },
  service: null,
};

function config(version: number, keys: Record<string, PublishedKey>): PublishedConfig {
  return {
    version,
    snapshot: { format: 1, version, routes: [], tenants: { acme }, tenantSlugById: { T1: "acme" } },
    keys,
    serviceTokens: {},
  };
}

const before = config(1, {
  "hash-old": { tenant: "acme", name: "backend", expiresAt: null, revoked: false },
});
const after = config(2, {
  "hash-new": {
    tenant: "acme",
    name: "backend",
    expiresAt: null,
    revoked: false,
    previous: { hash: "hash-old", until: GRACE_END },
  },
});

const added: PartChange = [keyScope("hash-new"), splitPublished(after).get(keyScope("hash-new")) ?? null];
const removed: PartChange = [keyScope("hash-old"), null];

describe("a rotated key in the server's state", () => {
  it("split and assembled keeps the previous secret", () => {
    expect(assemblePublished(2, splitPublished(after))).toEqual(after);
  });

  for (const [label, changes] of [
    ["new part first", [added, removed]],
    ["old part removed first", [removed, added]],
  ] as const) {
    it(`both secrets are the same key during the grace, the old one revoked after (${label})`, () => {
      const state = new ConfigState();
      state.apply(splitPublished(before), 1, T0);
      state.apply(changes, 2, T0);
      const index = state.current;
      const fresh = index.keysByHash.get("hash-new");
      const old = index.keysByHash.get("hash-old");
      expect(fresh).toMatchObject({ tenant: "acme", name: "backend", id: "K1" });
      expect(old).toMatchObject({ tenant: "acme", name: "backend", id: "K1", retiredAt: GRACE_END });
      expect(index.keysByName.get("acme backend")).toBe(fresh);
      expect(keyProblem(old!, GRACE_END - 1)).toBeNull();
      expect(keyProblem(old!, GRACE_END)).toBe("revoked_key");
      expect(keyProblem(fresh!, GRACE_END + 1)).toBeNull();
      // the same as a server that loads the whole version
      const whole = buildIndex(after, T0);
      expect(index.keysByHash).toEqual(whole.keysByHash);
      expect(index.snapshot).toEqual(whole.snapshot);
    });
  }

  it("the key's own earlier expiry still answers expired_key; revoking revokes both", () => {
    const expiring = config(2, {
      "hash-new": { ...after.keys["hash-new"]!, expiresAt: GRACE_END - 10_000 },
    });
    const old = buildIndex(expiring, T0).keysByHash.get("hash-old")!;
    expect(keyProblem(old, GRACE_END - 10_000)).toBe("expired_key");
    const revoked = config(3, { "hash-new": { ...after.keys["hash-new"]!, revoked: true } });
    expect(keyProblem(buildIndex(revoked, T0).keysByHash.get("hash-old")!, T0)).toBe("revoked_key");
  });

  it("a second rotation drops the first secret and retires the second", () => {
    const state = new ConfigState();
    state.apply(splitPublished(after), 2, T0);
    const third: PublishedKey = {
      ...after.keys["hash-new"]!,
      previous: { hash: "hash-new", until: GRACE_END + 60_000 },
    };
    state.apply(
      [
        [keyScope("hash-third"), { kind: "key", ...third, id: "K1" }],
        [keyScope("hash-new"), null],
      ],
      3,
      T0,
    );
    expect(state.current.keysByHash.has("hash-old")).toBe(false);
    expect(state.current.keysByHash.get("hash-new")?.retiredAt).toBe(GRACE_END + 60_000);
    expect(state.current.keysByName.get("acme backend")).toBe(state.current.keysByHash.get("hash-third"));
  });
});
