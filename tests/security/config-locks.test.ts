// Configuration changes serialize per tenant (no tenant holds up another): a long change of one
// tenant does not hold up another tenant's key creation, and two tenants' changes made at
// the same time get consecutive versions whose last snapshot holds both.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { createApiKey } from "@/lib/control/data/api-keys";
import { runTenantChange } from "@/lib/control/data/config-change";
import { latestPublished } from "@/lib/control/data/config-versions";
import { importConfig } from "@/lib/control/data/import-config";
import { exportConfig } from "@/lib/control/data/export-config";
import { closeDb } from "@/lib/control/data/db";
import { closeRedis } from "@/lib/shared/redis/redis";
import { tester, unique } from "@/tests/integration/check/setup";

let globalRoutes: unknown[] = [];
const tenantA = unique("lock-a");
const tenantB = unique("lock-b");

/** A promise and its release, for holding a transaction open on purpose. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms)),
  ]);
}

/** Holds tenant A's locks (and an audited change of it) until `held` opens; calls `locked` once it waits. */
function holdTenantA(held: Promise<void>, name: string, locked: () => void) {
  return runTenantChange(tenantA, tester, null, async (tx, audit) => {
    const tenant = await tx.tenant.findUniqueOrThrow({ where: { slug: tenantA } });
    const row = await tx.apiKey.create({
      data: {
        tenantId: tenant.id,
        name,
        prefix: "sk_test",
        hash: createHash("sha256").update(name).digest("hex"),
      },
    });
    await audit({ action: "key.create", targetType: "key", targetId: row.id, tenantId: tenant.id });
    locked(); // its locks taken (before its work ran), its change written: it waits now
    await held;
    return row.hash;
  });
}

beforeAll(async () => {
  const current = await exportConfig(tester);
  const plan = current.plans?.[0]?.name;
  if (!plan) throw new Error("the seed has no plan");
  globalRoutes = current.routes ?? [];
  await importConfig(tester, { tenants: [tenantA, tenantB].map((slug) => ({ slug, name: slug, plan })) });
});

afterAll(async () => {
  await closeDb();
  await closeRedis();
});

describe("per-tenant configuration locks", () => {
  it("tenant B creates a key while tenant A's change holds its locks", async () => {
    const held = gate();
    const locked = gate();
    const a = holdTenantA(held.wait, unique("held"), locked.open);
    await locked.wait; // A has its locks and is waiting
    try {
      const started = performance.now();
      const key = await within(createApiKey(tester, tenantB, { name: unique("b-key") }), 5_000, "B's key");
      expect(key.key).toMatch(/^sk_/);
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      held.open();
    }
    expect((await a).configVersion).not.toBeNull();
  });

  it("a global change waits for a tenant change in progress", async () => {
    const held = gate();
    const locked = gate();
    const a = holdTenantA(held.wait, unique("held"), locked.open);
    await locked.wait;
    let globalDone = false;
    // the global routes as they are: it changes nothing but takes the global lock
    const global = importConfig(tester, { routes: globalRoutes }).then(() => (globalDone = true));
    // a wait that must end with nothing done: the global change is still held up after it
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(globalDone).toBe(false);
    held.open();
    await a;
    await global;
    expect(globalDone).toBe(true);
  });

  it("two tenants' concurrent changes get consecutive versions; the last snapshot holds both", async () => {
    const both = gate();
    let written = 0;
    const change = (slug: string, name: string) =>
      runTenantChange(slug, tester, null, async (tx, audit) => {
        const tenant = await tx.tenant.findUniqueOrThrow({ where: { slug } });
        const hash = createHash("sha256").update(name).digest("hex");
        const row = await tx.apiKey.create({ data: { tenantId: tenant.id, name, prefix: "sk_test", hash } });
        await audit({ action: "key.create", targetType: "key", targetId: row.id, tenantId: tenant.id });
        // both have written before either numbers its version
        if (++written === 2) both.open();
        await within(both.wait, 5_000, "the other tenant's write");
        return hash;
      });
    const [a, b] = await Promise.all([change(tenantA, unique("ka")), change(tenantB, unique("kb"))]);
    const versions = [a.configVersion, b.configVersion].map(Number).sort((x, y) => x - y);
    expect(versions[1]).toBe((versions[0] ?? 0) + 1);
    const latest = await latestPublished();
    expect(latest?.version).toBe(versions[1]);
    const keys = latest?.keys ?? {};
    expect(Object.keys(keys)).toEqual(expect.arrayContaining([a.result, b.result]));
  });
});
