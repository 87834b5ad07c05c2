// Which row of the limit tree a rejection is counted on (lib/control/limit-tree/attribution.ts):
// the row of the limit that denied it, matched among the limits the check met, never the
// plan or tenant rows for a route limit's denials.
import { describe, expect, it } from "vitest";
import type { CompiledLimit } from "@/lib/control/config/compile";
import { attribute } from "@/lib/control/limit-tree/attribution";
import type { KeyShape, PlacedLimit, TenantShape } from "@/lib/control/limit-tree/shape";
import type { LimitDenial } from "@/lib/usage/read/limit-denials";
import type { LimitBy } from "@/lib/shared/limit-types";

function placed(id: string, by: LimitBy, route: string | null, level: CompiledLimit["level"]): PlacedLimit {
  const name = id.split(":").at(-1) ?? id;
  const limit: CompiledLimit = {
    id,
    name,
    level,
    by,
    route,
    rule: {
      algorithm: "fixed_window",
      limit: 10,
      windowMs: 1_000,
      burst: null,
      action: "reject",
      maxDelayMs: null,
      mode: "enforce",
      onStoreFailure: "open",
    },
    provenance: [],
  };
  return { limit, entry: name, override: null };
}

const INGEST = "POST /v1/ingest";
const planRpm = placed("p:pro:plan-rpm", "tenant", null, "plan");
const writes = placed("t:writes", "tenant", null, "tenant");
// one name on the tenant and on a route: told apart by the level the answer gives
const routeWrites = placed(`r:tenant:${INGEST}:writes`, "tenant", INGEST, "route");
const globalBulk = placed("r:global:POST /*:bulk", "tenant", "POST /*", "route");
const keyRps = placed("k:k1:key-rps", "key", null, "key");
const keyIngest = placed(`k:k1:key-ingest`, "key", INGEST, "key");
const perIp = placed("t:per-ip", "subject", null, "tenant");

const ingest: KeyShape = {
  id: "k1",
  name: "ingest",
  owner: "k.k1",
  ownerKey: "o:k1",
  unrouted: [planRpm, writes, keyRps, perIp],
  routed: new Map([
    [INGEST, [routeWrites, keyIngest]],
    ["POST /*", [globalBulk]],
  ]),
};

const shape: TenantShape = {
  tenantId: "t1",
  owner: "t.t1",
  ownerKey: "o:t1",
  plan: [planRpm],
  tenant: [writes],
  routes: new Map([
    [INGEST, [routeWrites]],
    ["POST /*", [globalBulk]],
  ]),
  subjects: [perIp],
  keys: [ingest],
  keysByName: new Map([["ingest", ingest]]),
  ownerKeys: [],
  logs: [],
};

const denial = (
  keyId: string,
  route: string,
  name: string,
  level: LimitDenial["level"],
  by: LimitBy,
  count: number,
): LimitDenial => ({ keyId, route, name, level, by, count });

describe("attribution", () => {
  it("counts each rejection on the row of the limit that denied it", () => {
    const out = attribute(shape, [
      denial("k1", INGEST, "plan-rpm", "plan", "tenant", 1),
      denial("k1", "", "writes", "tenant", "tenant", 2),
      denial("k1", INGEST, "writes", "route", "tenant", 700),
      denial("k1", INGEST, "key-ingest", "key", "key", 1000),
      denial("k1", "", "key-rps", "key", "key", 4),
      denial("k1", "", "per-ip", "tenant", "subject", 8),
    ]);
    expect(out.plan).toBe(1);
    expect(out.tenant).toBe(2);
    // the route's tenant-wide limit: on the route's row, and on the key's row under that route
    expect(out.byRoute).toEqual(new Map([[INGEST, 700]]));
    expect(out.byKeyRoute).toEqual(new Map([[`k1 ${INGEST}`, 1700]]));
    expect(out.byKey).toEqual(new Map([["k1", 4]]));
    expect(out.subjects).toBe(8);
    expect(out.unplaced).toBe(0);
  });

  it("matches keyless checks among the tenant's limits, and a global route's limit under the tenant's pattern", () => {
    const out = attribute(shape, [
      denial("", INGEST, "writes", "route", "tenant", 3),
      // a key's limit cannot deny a check without a key: nothing to match
      denial("", "", "key-rps", "key", "key", 5),
      // the answer named the tenant's pattern; the limit sits under the global one
      denial("k1", INGEST, "bulk", "route", "tenant", 6),
    ]);
    expect(out.byRoute).toEqual(
      new Map([
        [INGEST, 3],
        ["POST /*", 6],
      ]),
    );
    expect(out.byKeyRoute).toEqual(new Map([["k1 POST /*", 6]]));
    expect(out.unplaced).toBe(5);
  });

  it("keeps a limit whose level changed since (an override added) on its row; unknown names on none", () => {
    const out = attribute(shape, [
      // plan-rpm denied while a tenant override set its values: still the plan's limit
      denial("k1", "", "plan-rpm", "tenant", "tenant", 9),
      denial("k1", "", "renamed", "tenant", "tenant", 2),
      // a key deleted since: its checks' tenant limits still count
      denial("gone", "", "writes", "tenant", "tenant", 1),
    ]);
    expect(out.plan).toBe(9);
    expect(out.tenant).toBe(1);
    expect(out.unplaced).toBe(2);
  });
});
