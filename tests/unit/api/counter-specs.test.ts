import { describe, expect, it } from "vitest";
import { compileSnapshot, idMapFromNames } from "@/lib/control/config/compile";
import { counterIdentity, counterTarget, limitsNamed, planCheck } from "@/lib/control/data/counter-specs";
import { entryOf, limitKey } from "@/lib/check/limiter/keys";
import { documentFromYaml } from "../config/load-document";

const document = documentFromYaml(`
plans:
  - name: free
    limits:
      - { name: rpm, by: tenant, algorithm: fixed_window, limit: 100, window: 1m }
      - { name: key-rps, by: key, algorithm: gcra, limit: 10, window: 1s }
      - { name: ip, by: subject, algorithm: sliding_log, limit: 5, window: 1s }
routes:
  - pattern: "POST /search"
    limits:
      - { name: search, by: key, algorithm: gcra, limit: 2, window: 1s }
tenants:
  - slug: acme
    plan: free
    keys:
      - name: backend
        limits:
          - { name: key-rps, limit: 50 }
          - { name: own, by: key, algorithm: token_bucket, limit: 3, window: 1s }
`);
const snapshot = compileSnapshot(document, idMapFromNames(document), 1);
const acme = snapshot.tenants.acme!;

describe("planCheck", () => {
  it("gives specs whose keys are the ones enforcement uses, skipping owners the check lacks", () => {
    const planned = planCheck(
      acme,
      "backend",
      { global: "POST /search", tenant: null },
      {
        tenantId: acme.id,
        keyId: "backend",
        subject: null,
      },
    );
    const names = planned.map((p) => [p.limit.name, p.spec !== null]);
    expect(names).toEqual(
      expect.arrayContaining([
        ["rpm", true],
        ["key-rps", true],
        ["ip", false],
        ["search", true],
        ["own", true],
      ]),
    );
    const search = planned.find((p) => p.limit.name === "search")!;
    expect(search.spec?.identity).toBe(
      counterIdentity(search.limit, { tenantId: acme.id, keyId: "backend", subject: null }),
    );
  });
});

describe("limitsNamed", () => {
  it("finds a name across the tenant's and every key's sets, one per counter id", () => {
    expect(limitsNamed(acme, "rpm", null).map((l) => l.id)).toEqual(["p:free:rpm"]);
    expect(limitsNamed(acme, "own", null)).toHaveLength(1);
    expect(limitsNamed(acme, "own", "some-other-key")).toHaveLength(0);
    expect(limitsNamed(acme, "nope", null)).toEqual([]);
  });
});

/** A SCAN MATCH pattern as Redis reads it (our key parts hold no glob characters but *). */
const matches = (pattern: string, key: string): boolean =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`).test(key);

describe("counterTarget", () => {
  it("finds exactly the counter a check uses for one owner, and every owner's without one", () => {
    const owners = { tenantId: acme.id, keyId: "backend", subject: "1.2.3.4" };
    const planned = planCheck(acme, "backend", { global: "POST /search", tenant: null }, owners);
    let entries = 0;
    for (const { limit, spec } of planned) {
      if (!spec) continue;
      const one = counterTarget(acme.id, limit, owners);
      const all = counterTarget(acme.id, limit, { tenantId: acme.id, keyId: null, subject: null });
      const key = limitKey(spec);
      if (one.kind === "keys" && all.kind === "keys") {
        expect(matches(one.pattern, key)).toBe(true);
        expect(matches(all.pattern, key)).toBe(true);
        expect(one.pattern.slice(0, -1)).not.toMatch(/[*?[\]]/);
        continue;
      }
      if (one.kind !== "entries" || all.kind !== "entries") throw new Error("one kind per limit");
      entries++;
      expect(one.key).toBe(key);
      expect(one.entry).toBe(entryOf(spec));
      expect(all.entry).toBe(one.entry);
      expect(matches(all.pattern, key)).toBe(true);
      // by tenant: the owner is always known; by key: every key's, never a subject's
      if (limit.by === "tenant") expect(all.key).toBe(key);
      else expect(all.key).toBeNull();
      expect(matches(all.pattern, limitKey({ ...spec, owner: "s.1.2.3.4", identity: "s.1.2.3.4" }))).toBe(
        limit.by === "subject",
      );
    }
    expect(entries).toBeGreaterThanOrEqual(3);
  });
});
