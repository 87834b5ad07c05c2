import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRateLimit } from "ratelimit-header-parser";
import { parseList } from "structured-headers";
import { createClient, withSluiceFetch } from "@sluice/client";
import type { TenantDoc } from "@/lib/control/config/document";
import { HEADER_FLAVOURS, type HeaderFlavour } from "@/lib/shared/config-terms";
import { updateTenant } from "@/lib/control/data/edits/tenants";
import { exportConfig } from "@/lib/control/data/export-config";
import { closeClients, FREE_PLAN_OFF, importDoc, setupTenants, tester, unique } from "./setup";
import { APP_URL, APP_URL_2, BOOTSTRAP, check, waitForVersion, type Decision } from "./http";

// A tenant per header flavour (docs/api.md, "Header flavours") on the running apps: each
// check's headers, read back by ratelimit-header-parser (draft-6/7 and X-RateLimit) or a
// structured-fields parser (draft-11), against the decision body's binding limit. Then a
// change of flavour through the document, and the client middleware's own choice.

const SINGLE = HEADER_FLAVOURS.filter((flavour) => flavour !== "draft-11");
const slugs = new Map(HEADER_FLAVOURS.map((flavour) => [flavour, unique(`hdr-${flavour}`)]));
let keys: Record<string, string> = {};
let version = 0;

function tenant(slug: string, flavour: HeaderFlavour | undefined): TenantDoc {
  return {
    slug,
    name: slug,
    plan: "free",
    status: "active",
    ...(flavour !== undefined ? { headers: flavour } : {}),
    limits: [
      ...FREE_PLAN_OFF,
      // 5 an hour per key binds before 1000 a minute for the tenant (the lesser share left)
      { name: "per-key", by: "key", algorithm: "fixed_window", limit: 5, window: "1h" },
      { name: "per-tenant", by: "tenant", algorithm: "sliding_log", limit: 1000, window: "1m" },
    ],
    routes: [],
    keys: [{ name: "main", limits: [] }],
  } as TenantDoc;
}

beforeAll(async () => {
  const setup = await setupTenants(
    HEADER_FLAVOURS.map((flavour) => tenant(slugs.get(flavour) ?? "", flavour)),
  );
  keys = setup.keys;
  version = setup.version;
  await waitForVersion(version);
  await waitForVersion(version, APP_URL_2);
});

afterAll(closeClients);

const keyOf = (flavour: HeaderFlavour): string => keys[`${slugs.get(flavour)}/main`] ?? "";

/** The body's report of the limit the single-valued flavours must carry. */
function perKey(decision: Decision): { limit: number; remaining: number; resetMs: number } {
  const limit = decision.limits.find((l) => l.name === "per-key");
  if (!limit || limit.remaining === null || limit.resetMs === null) throw new Error("per-key not evaluated");
  return { limit: limit.limit, remaining: limit.remaining, resetMs: limit.resetMs };
}

describe("header flavours over HTTP", () => {
  it.each(SINGLE)(
    "%s: read back by ratelimit-header-parser as the binding limit of the body",
    async (flavour) => {
      for (let i = 0; i < 6; i++) {
        const before = Date.now();
        const answer = await check({ apiKey: keyOf(flavour) });
        expect(answer.status).toBe(200);
        const expected = perKey(answer.body);
        const parsed = parseRateLimit(answer.headers);
        expect(parsed, `check ${i}`).toMatchObject({
          limit: expected.limit,
          remaining: expected.remaining,
          used: expected.limit - expected.remaining,
        });
        // the reset is in whole seconds, rounded up: never before the body's, at most a second after
        const reset = parsed?.reset?.getTime() ?? 0;
        expect(reset).toBeGreaterThanOrEqual(before + expected.resetMs - 1_000);
        expect(reset).toBeLessThanOrEqual(Date.now() + expected.resetMs + 1_000);
        if (flavour === "draft-7" || flavour === "draft-6")
          expect(answer.headers.get("ratelimit-policy")).toBe("5;w=3600");
        expect(answer.headers.get("x-ratelimit-limit") !== null).toBe(flavour.startsWith("legacy"));
        if (flavour === "legacy-epoch")
          expect(Number(answer.headers.get("x-ratelimit-reset"))).toBeGreaterThan(before / 1000);
        // the sixth is over the limit: remaining 0 and Retry-After as in every flavour
        expect(answer.body.allowed).toBe(i < 5);
        expect(answer.headers.get("retry-after") !== null).toBe(i >= 5);
      }
    },
  );

  it("draft-11 (the default) stays the structured lists, one item per limit", async () => {
    const answer = await check({ apiKey: keyOf("draft-11") });
    const items = parseList(answer.headers.get("ratelimit") ?? "").map(([name]) => name);
    expect(items).toEqual(["per-key", "per-tenant"]);
    expect(parseRateLimit(answer.headers)?.limit).toBeNaN();
  });

  it("a change of the tenant's flavour reaches both servers", async () => {
    const slug = slugs.get("draft-11") ?? "";
    const changed = await importDoc({ tenants: [tenant(slug, "legacy")] });
    for (const url of [APP_URL, APP_URL_2]) {
      await waitForVersion(changed, url);
      const answer = await check({ apiKey: keyOf("draft-11") }, { url });
      expect(answer.headers.get("ratelimit")).toBeNull();
      expect(Number(answer.headers.get("x-ratelimit-limit"))).toBe(5);
    }
    await waitForVersion(await importDoc({ tenants: [tenant(slug, undefined)] }));
  });

  it("the settings form's update sets it, and the export shows it only when not the default", async () => {
    const slug = unique("hdr-form");
    const setup = await setupTenants([tenant(slug, undefined)]);
    const form = { slug, name: slug, plan: "free", status: "active" } as const;
    const set = await updateTenant(tester, { ...form, headers: "draft-6" });
    await waitForVersion(set.configVersion ?? 0);
    const answer = await check({ apiKey: setup.keys[`${slug}/main`] });
    expect(answer.headers.get("ratelimit-limit")).toBe("5");
    expect((await exportConfig(tester)).tenants?.find((t) => t.slug === slug)?.headers).toBe("draft-6");
    // left out, the form keeps it; the default is not written back
    await updateTenant(tester, form);
    expect((await exportConfig(tester)).tenants?.find((t) => t.slug === slug)?.headers).toBe("draft-6");
    await updateTenant(tester, { ...form, headers: "draft-11" });
    const exported = (await exportConfig(tester)).tenants?.find((t) => t.slug === slug);
    expect(exported && "headers" in exported).toBe(false);
  });

  it("the client middleware's headers option overrides the tenant's flavour", async () => {
    const client = createClient({ url: APP_URL, token: BOOTSTRAP, timeoutMs: 5_000 });
    const slug = unique("hdr-mw");
    const setup = await setupTenants([tenant(slug, "legacy")]);
    await waitForVersion(setup.version);
    const handler = withSluiceFetch(() => new Response("ok"), { client, headers: "draft-7" });
    const request = new Request("http://app.local/items", {
      headers: { "x-api-key": setup.keys[`${slug}/main`] ?? "" },
    });
    const response = await handler(request);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-ratelimit-limit")).toBeNull();
    expect(response.headers.get("ratelimit")).toMatch(/^limit=5, remaining=4, reset=\d+$/);
    expect(parseRateLimit(response.headers)).toMatchObject({ limit: 5, remaining: 4 });
  });
});
