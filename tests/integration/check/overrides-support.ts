import { afterAll, beforeAll } from "vitest";
import { db } from "@/lib/control/data/db";
import { addPlansAndRoutes, closeClients, FREE_PLAN_OFF, setupTenants, unique } from "./setup";
import { APP_URL, APP_URL_2, decide, post, sleep, waitForVersion, type Decision } from "./http";

// Shared by the temporary-override files (overrides-*.test.ts, docs/overrides.md): each file
// gets tenants of its own, so none depends on what another file's overrides did.

export type OverrideReply = { id: string; endsAt: string; state: string };
export type Report = Decision["limits"][number] & { override?: { id: string; endsAt: string } };

export const limitsOf = (d: Decision): Report[] => d.limits as Report[];
export const few = (d: Decision): Report | undefined => limitsOf(d).find((l) => l.name === "few");

export interface OverrideTenants {
  /** limits "few" (3 an hour, by tenant) and "per-ip" (5 an hour, by subject); key "batch" */
  slug: string;
  /** another tenant, with key "theirs" */
  other: string;
  /** the first tenant's plan, with "plan-cap" (1000 an hour, by tenant) */
  plan: string;
  /** "<slug>/<key name>" -> secret */
  keys: Record<string, string>;
  /** the first tenant's id, filled in by beforeAll */
  tenantId: string;
}

/** The file's tenants, created in its beforeAll (on both app processes) and its clients closed after. */
export function withOverrideTenants(): OverrideTenants {
  const tenants: OverrideTenants = {
    slug: unique("ovr"),
    other: unique("ovr-other"),
    plan: unique("ovrplan"),
    keys: {},
    tenantId: "",
  };
  const { slug, other, plan } = tenants;
  beforeAll(async () => {
    await addPlansAndRoutes([
      {
        name: plan,
        limits: [{ name: "plan-cap", by: "tenant", algorithm: "fixed_window", limit: 1000, window: "1h" }],
      },
    ]);
    const limits = [
      { name: "few", by: "tenant" as const, algorithm: "fixed_window" as const, limit: 3, window: "1h" },
      { name: "per-ip", by: "subject" as const, algorithm: "token_bucket" as const, limit: 5, window: "1h" },
    ];
    const setup = await setupTenants(
      [
        { slug, plan, limits },
        { slug: other, plan: "free", limits: FREE_PLAN_OFF },
      ],
      {
        keysWithoutLimits: [
          { tenant: slug, name: "batch" },
          { tenant: other, name: "theirs" },
        ],
      },
    );
    tenants.keys = setup.keys;
    await waitForVersion(setup.version);
    await waitForVersion(setup.version, APP_URL_2);
    tenants.tenantId = (await db().tenant.findUniqueOrThrow({ where: { slug }, select: { id: true } })).id;
  });
  afterAll(closeClients);
  return tenants;
}

/** Creates an override of the tenant through the admin API (201 or it throws). */
export async function createFor(slug: string, body: Record<string, unknown>): Promise<OverrideReply> {
  const reply = await post<OverrideReply>("/api/admin/overrides", { tenant: slug, reason: "test", ...body });
  if (reply.status !== 201) throw new Error(`override: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

/** Polls until the app's answer passes `accept`; returns when that answer arrived. */
export async function when(url: string, body: unknown, accept: (d: Decision) => boolean, limitMs = 15_000) {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const decision = await decide(body, { url });
    const at = Date.now(); // the app decided before this: same machine, same clock
    if (accept(decision)) return { at, decision };
    if (Date.now() > deadline)
      throw new Error(`${url}: not seen in ${limitMs} ms: ${JSON.stringify(decision)}`);
    await sleep(20);
  }
}

export const nextSecond = (offsetMs: number): number => Math.ceil((Date.now() + offsetMs) / 1000) * 1000;

/** A decision Redis answered (on a loaded machine a check may come back degraded: ask again). */
export async function settled(body: unknown, url = APP_URL): Promise<Decision> {
  for (let i = 0; ; i++) {
    const decision = await decide(body, { url });
    if (!decision.degraded || i >= 50) return decision;
    await sleep(100);
  }
}
