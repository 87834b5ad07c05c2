import { describe, expect, it } from "vitest";
import { compileSnapshot, idMapFromNames } from "@/lib/config/compile";
import { counterIdentity, counterPattern, limitsNamed, planCheck } from "@/lib/config/dal/counter-specs";
import { limitKey } from "@/lib/limiter/keys";
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
    const planned = planCheck(snapshot, acme, "backend", "POST /search", {
      tenantId: acme.id,
      keyId: "backend",
      subject: null,
    });
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

describe("counterPattern", () => {
  it("matches exactly the limit's key for one owner, and every owner's without one", () => {
    const planned = planCheck(snapshot, acme, "backend", null, {
      tenantId: acme.id,
      keyId: "backend",
      subject: "1.2.3.4",
    });
    for (const { limit, spec } of planned) {
      if (!spec) continue;
      const key = limitKey(spec);
      const one = counterPattern(acme.id, limit.id, spec.identity);
      const all = counterPattern(acme.id, limit.id, null);
      expect(key.startsWith(one.slice(0, -1))).toBe(true);
      expect(key.startsWith(all.slice(0, -1))).toBe(true);
      expect(one.slice(0, -1)).not.toMatch(/[*?[\]]/);
    }
  });
});
