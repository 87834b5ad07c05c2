import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomInt } from "node:crypto";
import type { Principal } from "@/lib/shared/principal";
import type { TenantDoc } from "@/lib/control/config/document";
import { importConfig } from "@/lib/control/data/import-config";
import { exportConfig } from "@/lib/control/data/export-config";
import { ForbiddenError, ValidationFailed } from "@/lib/control/errors/errors";
import { closeClients, FREE_PLAN_OFF, importDoc, setupTenants, unique } from "./setup";
import { APP_URL, APP_URL_2, decide, waitForVersion } from "./http";

// Allow and deny lists on the running apps (docs/configuration.md): a deny answered from
// memory (the list metric counts it, no limit is evaluated), an allow skipping the limits it
// names or all, the operator's global list met by every tenant and refused to a tenant's
// editor, a change enforced by both apps within a second, and IPv6 subjects keyed by /64.

const a = unique("lst");
const b = unique("lst");
// addresses of this run only (198.18.0.0/15 is for benchmarks), so parallel runs never meet
const net = `198.${18 + randomInt(2)}.${randomInt(256)}`;
let keys: Record<string, string> = {};

const limits = [
  ...FREE_PLAN_OFF,
  { name: "one-a", by: "subject", algorithm: "fixed_window", limit: 1, window: "1h" },
  { name: "one-b", by: "subject", algorithm: "fixed_window", limit: 1, window: "1h" },
] as TenantDoc["limits"];

async function listMetric(list: "deny" | "allow", url = APP_URL): Promise<number> {
  const text = await (await fetch(`${url}/api/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`sluice_list_decisions_total{list="${list}"} `));
  return line ? Number(line.split(" ")[1]) : 0;
}

const editorOf = (tenantId: string): Principal => ({
  kind: "user",
  id: "u-lists",
  email: "lists@x.test",
  name: "L",
  isOperator: false,
  memberships: new Map([[tenantId, "owner"]]),
});

beforeAll(async () => {
  const setup = await setupTenants([
    {
      slug: a,
      plan: "free",
      limits,
      keys: [{ name: "k", limits: [] }],
      lists: {
        deny: [`${net}.0/28`, "bad-bot", "2001:db8:bad::/48"],
        allow: [`${net}.64/26`, { entry: `${net}.128/25`, limits: ["one-a"] }],
      },
      ipSubjects: { ipv4: 32, ipv6: 64 },
    },
    { slug: b, plan: "free", limits, keys: [{ name: "k", limits: [] }] },
  ]);
  keys = setup.keys;
  await waitForVersion(setup.version);
  await waitForVersion(setup.version, APP_URL_2);
});

afterAll(async () => {
  await importDoc({ lists: { deny: [], allow: [] } });
  await closeClients();
});

const checkA = (subject: string) => decide({ apiKey: keys[`${a}/k`], subject });
const checkB = (subject: string) => decide({ apiKey: keys[`${b}/k`], subject });

describe("deny lists", () => {
  it("denies an address of a listed range, a subject and an IPv6 range in memory, counting nothing", async () => {
    const before = await listMetric("deny");
    for (const subject of [`${net}.3`, `${net}.15`, "bad-bot", "2001:db8:bad:1::9", `::ffff:${net}.7`]) {
      const decision = await checkA(subject);
      expect(decision, subject).toMatchObject({
        allowed: false,
        reason: "deny_list",
        limits: [],
        retryAfterMs: null,
      });
    }
    // answered before any limit: no counter was read or written for them
    expect(await listMetric("deny")).toBe(before + 5);
    const next = await checkA(`${net}.16`);
    expect(next).toMatchObject({ allowed: true, reason: "ok" });
    expect(next.limits.map((l) => l.name).sort()).toEqual(["one-a", "one-b"]);
  });
});

describe("allow lists", () => {
  it("skips every limit for an entry without names", async () => {
    for (let i = 0; i < 3; i++) {
      const decision = await checkA(`${net}.70`);
      expect(decision).toMatchObject({ allowed: true, limits: [] });
    }
  });

  it("skips only the named limits, and counts the others", async () => {
    const first = await checkA(`${net}.200`);
    expect(first.limits.map((l) => l.name)).toEqual(["one-b"]);
    expect(first.allowed).toBe(true);
    const second = await checkA(`${net}.200`);
    expect(second).toMatchObject({ allowed: false, reason: "rate_limited" });
  });
});

describe("the global lists", () => {
  it("apply to every tenant, within a second on both apps, and only an operator sets them", async () => {
    const subject = `${net}.33`;
    expect((await checkB(subject)).allowed).toBe(true);
    const version = await importDoc({ lists: { deny: [`${net}.32/30`], allow: [] } });
    const published = Date.now();
    await waitForVersion(version, APP_URL, 1_000);
    await waitForVersion(version, APP_URL_2, 1_000);
    expect(Date.now() - published).toBeLessThan(1_000);
    for (const url of [APP_URL, APP_URL_2]) {
      expect(await decide({ apiKey: keys[`${b}/k`], subject }, { url })).toMatchObject({
        reason: "deny_list",
      });
      expect(await decide({ apiKey: keys[`${a}/k`], subject: `${net}.34` }, { url })).toMatchObject({
        reason: "deny_list",
      });
    }
    // a deny in the global list wins over the tenant's allow of the same address
    const next = await importDoc({ lists: { deny: [`${net}.64/32`] } });
    await waitForVersion(next, APP_URL, 1_000);
    expect(await checkA(`${net}.64`)).toMatchObject({ reason: "deny_list" });
  });

  it("are refused to a tenant's owner, who can change only the tenant's own lists", async () => {
    const exported = await exportConfig({ kind: "system", label: "t" });
    const tenant = exported.tenants?.find((t) => t.slug === b);
    if (!tenant) throw new Error("tenant missing");
    const { db } = await import("@/lib/control/data/db");
    const row = await db().tenant.findUniqueOrThrow({ where: { slug: b }, select: { id: true } });
    const owner = editorOf(row.id);
    await expect(
      importConfig(owner, { lists: { deny: ["0.0.0.0/0"] }, tenants: [tenant] }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    const own = await importConfig(owner, {
      tenants: [{ ...tenant, lists: { deny: ["own-deny"], allow: [] } }],
    });
    expect(own.configVersion).not.toBeNull();
    await waitForVersion(own.configVersion ?? 0);
    expect(await checkB("own-deny")).toMatchObject({ reason: "deny_list" });
    expect(await checkA("own-deny")).toMatchObject({ allowed: true });
  });
});

describe("validation", () => {
  it("names the field and the entry's index, and changes nothing", async () => {
    const exported = await exportConfig({ kind: "system", label: "t" });
    const tenant = exported.tenants?.find((t) => t.slug === a);
    const bad = {
      ...tenant,
      lists: { deny: ["10.0.0.0/8", "10.0.0.0/33"], allow: [{ entry: "10.1.0.1/8" }] },
    };
    const error = await importConfig({ kind: "system", label: "t" }, { tenants: [bad] }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationFailed);
    const paths = (error as ValidationFailed).errors.map((e) => `${e.path}: ${e.message}`);
    expect(paths).toContainEqual(
      expect.stringMatching(/^tenants\[0\]\.lists\.deny\[1\]: .*must be 0 to 32 for IPv4/),
    );
    expect(paths).toContainEqual(expect.stringMatching(/^tenants\[0\]\.lists\.allow\[0\]/));
  });
});

describe("subnet keying", () => {
  it("counts two addresses of one IPv6 /64 as one subject, and another /64 apart", async () => {
    const prefix = `2001:db8:${randomInt(0xffff).toString(16)}:${randomInt(0xffff).toString(16)}`;
    expect(await checkA(`${prefix}::1`)).toMatchObject({ allowed: true });
    expect(await checkA(`${prefix}:ffff::2`)).toMatchObject({ allowed: false, reason: "rate_limited" });
    expect(await checkA(`2001:db8:ffff:${randomInt(0xffff).toString(16)}::1`)).toMatchObject({
      allowed: true,
    });
    // IPv4 stays per address unless a prefix is set
    expect(await checkA(`203.0.113.${randomInt(256)}`)).toMatchObject({ allowed: true });
  });

  it("round-trips lists and subnet keying through export and import without a change", async () => {
    const exported = await exportConfig({ kind: "system", label: "t" });
    const tenant = exported.tenants?.find((t) => t.slug === a);
    expect(tenant?.lists?.deny).toContain("bad-bot");
    expect(tenant?.ipSubjects).toEqual({ ipv4: 32, ipv6: 64 });
    const again = await importConfig({ kind: "system", label: "t" }, { tenants: [tenant] });
    expect(again.changes).toEqual([]);
  });
});

describe("the Lists tab's edit", () => {
  it("saves one entry a line, allow lines with limit names, and names a bad entry's index", async () => {
    const { updateTenantLists, listsText } = await import("@/lib/control/data/edits/tenant-lists");
    const system: Principal = { kind: "system", label: "t" };
    const saved = await updateTenantLists(system, {
      slug: b,
      deny: "own-deny\n\n192.0.2.0/24\n",
      allow: "10.0.0.0/8 one-a,one-b\nfriend",
      subnets: "on",
      ipv6: "56",
      ipv4: "",
    });
    expect(saved.changes).toEqual([{ action: "update", target: "tenant", name: b }]);
    const tenant = (await exportConfig(system)).tenants?.find((t) => t.slug === b);
    expect(tenant?.lists).toEqual({
      deny: ["own-deny", "192.0.2.0/24"],
      allow: [{ entry: "10.0.0.0/8", limits: ["one-a", "one-b"] }, "friend"],
    });
    expect(tenant?.ipSubjects).toEqual({ ipv4: 32, ipv6: 56 });
    expect(listsText(tenant?.lists)).toEqual({
      deny: "own-deny\n192.0.2.0/24",
      allow: "10.0.0.0/8 one-a,one-b\nfriend",
    });
    const error = await updateTenantLists(system, {
      slug: b,
      deny: "ok-one\n10.0.0.0/33",
      allow: "",
      subnets: "on",
      ipv6: "129",
      ipv4: "",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationFailed);
    const messages = (error as ValidationFailed).errors.map((e) => `${e.path}: ${e.message}`);
    expect(messages).toContainEqual(expect.stringMatching(/^tenants\[0\]\.lists\.deny\[1\]: /));
    expect(messages).toContainEqual(
      expect.stringMatching(/^tenants\[0\]\.ipSubjects\.ipv6: must be a prefix length from 0 to 128/),
    );
  });
});
