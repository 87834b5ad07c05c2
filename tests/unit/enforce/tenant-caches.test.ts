import { describe, expect, it } from "vitest";
import type { CheckAnswer } from "@/lib/check/check-answer";
import type { ConfigHolder } from "@/lib/check/config-holder";
import { CheckService } from "@/lib/check/check-service";
import { hotKeyOf } from "@/lib/check/hot-checks";
import type { LimiterStore, StoreResult } from "@/lib/check/limiter-store";
import type { PreparedCheck } from "@/lib/check/limiter/evaluate-many";
import { ServiceAuth, type Caller } from "@/lib/check/service-auth";
import { sha256Hex as sha256 } from "@/lib/shared/secrets";
import type { CheckInput } from "@/lib/check/types";
import { checkInput, PartsHolder, published, secretOf, type TenantSpec } from "./tenants-fixture";

// The check path's caches across config versions (check-service.ts, tenant-marks.ts): a
// change to one tenant drops that tenant's shapes, whole checks and known keys and leaves
// every other tenant's in use; a global change empties them all; a key created or revoked
// is seen by the very next check. Redis is not reached here: the store answers as Redis
// down does (each limit by its onStoreFailure), which names every limit the check met, so
// the answers show which limits a shape was built with. Through real Redis:
// tests/integration/limiter/tenant-caches.test.ts.

const REDIS_DOWN = {
  onReconnect: (): void => undefined,
  check: (_prepared: PreparedCheck, done: (result: StoreResult) => void): void =>
    done({ ok: false, failure: "error", cause: "connection_lost" }),
} as unknown as LimiterStore;

const everyone: Caller = { id: "svc", tenants: null };

interface Answer {
  reason: string;
  /** the first limit's quota */
  limit: number | null;
  /** the names of the limits met */
  names: string[];
  configVersion: number;
}

function setup(specs: TenantSpec[]) {
  const holder = new PartsHolder(published(1, specs));
  const service = new CheckService(holder as unknown as ConfigHolder, REDIS_DOWN);
  const decide = (fields: Partial<CheckInput>): Answer => {
    let answer: CheckAnswer | null = null;
    service.decide(checkInput(fields), everyone, (given) => (answer = given));
    const given = answer as CheckAnswer | null;
    if (given?.status !== 200) throw new Error(`no decision: ${JSON.stringify(given)}`);
    const body = JSON.parse(given.decision.json) as {
      reason: string;
      limits?: Array<{ name: string; limit: number }>;
      configVersion: number;
    };
    const limits = body.limits ?? [];
    return {
      reason: body.reason,
      limit: limits[0]?.limit ?? null,
      names: limits.map((l) => l.name),
      configVersion: body.configVersion,
    };
  };
  // the hot entry of a check, read without the gate's say (twice: a check goes in on its second sighting)
  const entryOf = (fields: Partial<CheckInput>) => service.hot.get(hotKeyOf(checkInput(fields)));
  return { holder, service, decide, entryOf };
}

const acme = (limit: number, extra: Partial<TenantSpec> = {}): TenantSpec => ({
  slug: "acme",
  limit,
  keys: ["backend"],
  ...extra,
});
const globex: TenantSpec = { slug: "globex", limit: 3, keys: ["api"] };

describe("per-tenant cache invalidation", () => {
  it("a change to one tenant keeps the others' shapes and whole checks, and rebuilds its own", () => {
    const { holder, service, decide, entryOf } = setup([acme(5), globex]);
    const checks = [
      { tenant: "acme" },
      { apiKey: secretOf("acme", "backend") },
      { tenant: "globex" },
      { apiKey: secretOf("globex", "api") },
    ];
    for (const fields of checks) {
      expect(decide(fields)).toMatchObject({ reason: "ok" });
      decide(fields);
    }
    expect([service.shapes.size, service.hot.size]).toEqual([4, 4]);
    const globexEntry = entryOf({ tenant: "globex" });
    const globexKeyEntry = entryOf({ apiKey: secretOf("globex", "api") });
    expect(globexEntry).toBeDefined();

    expect(holder.publish(published(2, [acme(9), globex]))).toEqual(new Set(["acme"]));
    // acme's went at once; globex's are the very same objects
    expect(service.shapes.size).toBe(2);
    expect(entryOf({ tenant: "acme" })).toBeUndefined();
    expect(entryOf({ apiKey: secretOf("acme", "backend") })).toBeUndefined();
    expect(entryOf({ tenant: "globex" })).toBe(globexEntry);
    expect(entryOf({ apiKey: secretOf("globex", "api") })).toBe(globexKeyEntry);
    // acme's answers carry its new limit, globex's the same one, both under version 2
    expect(decide({ tenant: "acme" })).toMatchObject({ limit: 9, configVersion: 2 });
    expect(decide({ apiKey: secretOf("acme", "backend") })).toMatchObject({ limit: 9 });
    expect(decide({ tenant: "globex" })).toMatchObject({ limit: 3 });
    expect(service.shapes.size).toBe(4);
  });

  it("answers from a kept shape name the version they are decided under", () => {
    const { holder, service, decide } = setup([acme(5), globex]);
    expect(decide({ tenant: "globex" })).toMatchObject({ configVersion: 1 });
    decide({ tenant: "globex" });
    const shapes = service.shapes.size;
    holder.publish(published(2, [acme(6), globex]));
    // the shape and whole check of version 1 answer, naming version 2 (degraded: memo per version)
    expect(decide({ tenant: "globex" })).toMatchObject({ configVersion: 2, limit: 3 });
    expect(service.shapes.size).toBe(shapes);
  });

  it("finds a key created after its value was looked up (and found unknown) at once", () => {
    const { holder, service, decide } = setup([acme(5), globex]);
    const secret = secretOf("acme", "mobile");
    expect(decide({ apiKey: secret })).toMatchObject({ reason: "unknown_key" });
    expect(decide({ apiKey: secret })).toMatchObject({ reason: "unknown_key" });
    expect(service.keys.unknown.get(secret)).toBe(true);
    // the key's part alone arrives (and the tenant's: it lists no bare key): acme touched
    expect(holder.publish(published(2, [acme(5, { keys: ["backend", "mobile"] }), globex]))).toEqual(
      new Set(["acme"]),
    );
    expect(decide({ apiKey: secret })).toMatchObject({ reason: "ok", limit: 5 });
  });

  it("answers revoked_key from the next check after a revocation, keeping other tenants' keys", () => {
    const { holder, service, decide } = setup([acme(5), globex]);
    const backend = secretOf("acme", "backend");
    const api = secretOf("globex", "api");
    for (const apiKey of [backend, backend, api, api])
      expect(decide({ apiKey })).toMatchObject({ reason: "ok" });
    const known = service.keys.known.get(api);
    expect(holder.publish(published(2, [acme(5, { revoked: ["backend"] }), globex]))).toEqual(
      new Set(["acme"]),
    );
    expect(decide({ apiKey: backend })).toMatchObject({ reason: "revoked_key" });
    expect(decide({ tenant: "acme", key: "backend" })).toMatchObject({ reason: "revoked_key" });
    expect(service.keys.known.get(api)).toBe(known);
    expect(known?.mark.current).toBe(true);
    expect(decide({ apiKey: api })).toMatchObject({ reason: "ok", limit: 3 });
  });

  it("serves a key given limits of its own by a tenant change (its key part unchanged) with them", () => {
    const { holder, decide } = setup([acme(5, { keys: ["backend", "mobile"] })]);
    const [backend, mobile] = [secretOf("acme", "backend"), secretOf("acme", "mobile")];
    decide({ apiKey: backend });
    decide({ apiKey: mobile });
    holder.publish(published(2, [acme(5, { keys: ["backend", "mobile"], keyLimits: { backend: 2 } })]));
    // mobile builds the tenant's key default shape first; backend must not share it
    expect(decide({ apiKey: mobile })).toMatchObject({ names: ["per-tenant"] });
    expect(decide({ apiKey: backend })).toMatchObject({ names: ["per-tenant", "per-key"] });
    expect(decide({ apiKey: mobile })).toMatchObject({ names: ["per-tenant"] });
  });

  it("empties every cache on a global change or a whole load", () => {
    const { holder, service, decide } = setup([acme(5), globex]);
    for (const fields of [{ tenant: "acme" }, { tenant: "globex" }, { apiKey: secretOf("globex", "api") }])
      for (let i = 0; i < 2; i++) decide(fields);
    expect(service.hot.size).toBeGreaterThan(0);
    const token = { id: "tok", tenants: null };
    expect(holder.publish(published(2, [acme(5), globex], "T", { digest: token }))).toBeNull();
    expect([service.shapes.size, service.hot.size, service.keys.known.size, service.marks.size]).toEqual([
      0, 0, 0, 0,
    ]);
    decide({ tenant: "acme" });
    holder.publishWhole(published(3, [acme(5), globex]));
    expect([service.shapes.size, service.marks.size]).toEqual([0, 0]);
  });
});

describe("service token callers", () => {
  it("stay cached through a tenant's change and are read again after a global one", () => {
    const tokens = { [sha256("svc-token")]: { id: "svc", tenants: ["acme"] } };
    const holder = new PartsHolder(published(1, [acme(5)], "T", tokens));
    const auth = new ServiceAuth(undefined);
    const first = auth.authenticate("Bearer svc-token", holder.current);
    expect(first?.tenants).toEqual(new Set(["acme"]));
    holder.publish(published(2, [acme(6)], "T", tokens));
    expect(auth.authenticate("Bearer svc-token", holder.current)).toBe(first);
    holder.publish(published(3, [acme(6)], "T", { [sha256("svc-token")]: { id: "svc", tenants: null } }));
    expect(auth.authenticate("Bearer svc-token", holder.current)?.tenants).toBeNull();
  });
});
