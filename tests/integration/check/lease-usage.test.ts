import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TenantDoc } from "@/lib/control/config/document";
import { queryUsage } from "@/lib/usage/read/api-series";
import { waitFor } from "../../wait-for";
import { closeClients, FREE_PLAN_OFF, setupTenants, tester, unique } from "./setup";
import { APP_URL, APP_URL_2, decide, post, waitForVersion } from "./http";

// Leases in the usage counts, through both running apps (docs/dashboard.md, Leases): leases
// taken on either server, released through the other, one released after its expiry
// (answered released: false, counted expired: docs/api.md) and one never released; the
// counts read back through the usage API's code.

const slug = unique("lease-usage");
const ROUTE = "POST /v1/jobs";
let apiKey = "";

const tenant = {
  slug,
  name: slug,
  plan: "free",
  status: "active",
  limits: [
    ...FREE_PLAN_OFF,
    { name: "in-flight", by: "key", algorithm: "concurrency", limit: 5, window: "2s" },
  ],
  routes: [{ pattern: ROUTE, limits: [] }],
  keys: [{ name: "main", limits: [] }],
} as TenantDoc;

beforeAll(async () => {
  const setup = await setupTenants([tenant]);
  apiKey = setup.keys[`${slug}/main`] ?? "";
  await waitForVersion(setup.version);
  await waitForVersion(setup.version, APP_URL_2);
});

afterAll(closeClients);

const release = async (lease: string, url: string): Promise<unknown> =>
  (await post<{ released?: boolean }>("/api/check/release", { lease }, { url })).body;

/** When the lease expires (epoch ms): the token says, for the usage counts. */
const expiryOf = (lease: string): number =>
  Number((JSON.parse(Buffer.from(lease, "base64url").toString("utf8")) as { e: string }).e);

describe("leases in the usage counts", () => {
  it(
    "counts leases acquired, released and expired; a release past the expiry answers false",
    { timeout: 60_000 },
    async () => {
      const from = Math.floor(Date.now() / 1_000) * 1_000 - 1_000;
      const leases: string[] = [];
      for (const url of [APP_URL, APP_URL_2, APP_URL, APP_URL_2]) {
        const decision = await decide({ apiKey, route: ROUTE }, { url });
        expect(decision.allowed).toBe(true);
        leases.push(decision.lease ?? "");
      }
      // the fourth is never released
      const [a = "", b = "", late = ""] = leases;
      expect(leases.every((lease) => lease.length > 0)).toBe(true);
      // released in time, each through the server that did not answer it
      expect(await release(a, APP_URL_2)).toEqual({ released: true });
      expect(await release(b, APP_URL)).toEqual({ released: true });
      // no check since: the expired lease is still in its set, untrimmed, when it is released
      const expiry = expiryOf(late);
      expect(expiry).toBeGreaterThan(Date.now());
      await waitFor(() => Date.now() > expiry + 20, "the lease's expiry to pass", 10_000, 20);
      expect(await release(late, APP_URL)).toEqual({ released: false });
      expect(await release(late, APP_URL_2)).toEqual({ released: false });
      const totals = async (): Promise<number[]> => {
        const series = await queryUsage(tester, {
          tenant: slug,
          fromMs: from,
          toMs: Date.now() + 1_000,
          stepMs: 1_000,
        });
        const sum = (pick: (p: (typeof series.points)[number]) => number) =>
          series.points.reduce((total, p) => total + pick(p), 0);
        return [
          sum((p) => p.leasesAcquired),
          sum((p) => p.leasesReleased),
          sum((p) => p.leasesExpired),
          sum((p) => p.allowed),
        ];
      };
      let seen: number[] = [];
      const expected = [4, 2, 2, 4];
      await waitFor(
        async () => (seen = await totals()).join() === expected.join(),
        "the fronts' flushes of the lease counts",
      ).catch(() => expect(seen).toEqual(expected));
      // per route like the other counts, per minute (from PostgreSQL once the rollup took them)
      const routed = await queryUsage(tester, {
        tenant: slug,
        route: ROUTE,
        fromMs: Math.floor(from / 60_000) * 60_000,
        toMs: Date.now() + 1_000,
        stepMs: 60_000,
      });
      expect(routed.points.reduce((sum, p) => sum + p.leasesExpired, 0)).toBe(2);
      expect(routed.points.reduce((sum, p) => sum + p.leasesAcquired, 0)).toBe(4);
    },
  );
});
