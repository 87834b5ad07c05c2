// The keys list of a busy tenant and the plans page against real PostgreSQL: keys paged,
// searched, filtered by state and sorted on the server (by traffic from totals the page
// hands over), hostile parameters named, and a member of another tenant finding nothing.
import { beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/shared/principal";
import { importConfig } from "@/lib/control/data/import-config";
import { createApiKey, revokeApiKey } from "@/lib/control/data/api-keys";
import { db } from "@/lib/control/data/db";
import { keyPage } from "@/lib/control/data/queries/key-page";
import { plansDocument } from "@/lib/control/data/queries/config-yaml";
import { NotFoundError, ForbiddenError } from "@/lib/control/errors/errors";
import { parseKeyListQuery } from "@/lib/control/lists/key-list-query";
import { KEY_RANGE_IDS } from "@/lib/usage/ranges";
import { anyPlan, makeMember, system } from "./fixtures";

const run = `ck${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
const busy = `${run}-busy`;
const other = `${run}-other`;
const KEYS = 60;
const keyName = (i: number) => `${run}-k${String(i).padStart(2, "0")}`;
let member: Principal;
let stranger: Principal;

const query = (params: Record<string, string>) => parseKeyListQuery(params, KEY_RANGE_IDS).query;

beforeAll(async () => {
  const plan = await anyPlan();
  await importConfig(system, {
    tenants: [
      { slug: busy, name: "Busy", plan },
      { slug: other, name: "Other", plan },
    ],
  });
  for (let i = 0; i < KEYS; i++) await createApiKey(system, busy, { name: keyName(i) });
  await createApiKey(system, other, { name: `${run}-theirs` });
  for (const i of [3, 4]) await revokeApiKey(system, busy, keyName(i));
  // one expired key: its expiry set in the past directly (the API refuses a past expiry)
  await db().apiKey.updateMany({
    where: { name: keyName(5) },
    data: { expiresAt: new Date(Date.now() - 60_000) },
  });
  const ids = new Map(
    (await db().tenant.findMany({ where: { slug: { startsWith: run } } })).map((t) => [t.slug, t.id]),
  );
  member = await makeMember(`${run}@viewer.test`, ids.get(busy) ?? "", "viewer");
  stranger = await makeMember(`${run}@stranger.test`, ids.get(other) ?? "", "admin");
});

describe("the keys list", () => {
  it("pages on the server, clamping a page past the end to the last", async () => {
    const first = await keyPage(member, busy, query({ size: "25" }));
    expect(first).toMatchObject({ total: KEYS, all: KEYS, page: 1, pages: 3 });
    expect(first.rows.map((k) => k.name)).toEqual(Array.from({ length: 25 }, (_, i) => keyName(i)));
    const last = await keyPage(member, busy, query({ size: "25", page: "99999" }));
    expect(last).toMatchObject({ page: 3, offset: 50 });
    expect(last.rows.map((k) => k.name)).toEqual(Array.from({ length: 10 }, (_, i) => keyName(50 + i)));
  });

  it("searches names and prefixes, and filters by state", async () => {
    const found = await keyPage(member, busy, query({ q: `${run}-k1` }));
    expect(found.rows.map((k) => k.name)).toEqual(Array.from({ length: 10 }, (_, i) => keyName(10 + i)));
    const prefix = found.rows[0]?.prefix ?? "";
    expect((await keyPage(member, busy, query({ q: prefix }))).rows.map((k) => k.name)).toEqual([
      keyName(10),
    ]);
    expect((await keyPage(member, busy, query({ state: "revoked" }))).rows.map((k) => k.name)).toEqual([
      keyName(3),
      keyName(4),
    ]);
    expect((await keyPage(member, busy, query({ state: "expired" }))).rows.map((k) => k.name)).toEqual([
      keyName(5),
    ]);
    expect((await keyPage(member, busy, query({ state: "active" }))).total).toBe(KEYS - 3);
    // wildcards are taken literally
    expect((await keyPage(member, busy, query({ q: "%" }))).total).toBe(0);
  });

  it("sorts by every column, both ways", async () => {
    const names = async (params: Record<string, string>) =>
      (await keyPage(member, busy, query({ size: "100", ...params }))).rows.map((k) => k.name);
    const all = Array.from({ length: KEYS }, (_, i) => keyName(i));
    expect(await names({ sort: "name", dir: "desc" })).toEqual([...all].reverse());
    expect((await names({ sort: "state" })).slice(0, 1)).toEqual([keyName(0)]);
    expect((await names({ sort: "state", dir: "desc" })).slice(0, 2)).toEqual([keyName(3), keyName(4)]);
    expect((await names({ sort: "expires" }))[0]).toBe(keyName(5));
    const created = (await keyPage(member, busy, query({ size: "100", sort: "created" }))).rows;
    for (let i = 1; i < created.length; i++)
      expect(created[i - 1]?.createdAt.getTime()).toBeGreaterThanOrEqual(
        created[i]?.createdAt.getTime() ?? 0,
      );
    for (const sort of ["prefix", "used", "checks", "rejected", "rate"])
      expect((await names({ sort })).sort()).toEqual(all);
  });

  it("sorts by traffic from the totals handed over (keys without any count 0)", async () => {
    const totals = {
      names: [keyName(7), keyName(2), keyName(9)],
      checks: [10, 100, 40],
      rejected: [5, 1, 40],
    };
    const page = async (sort: string) =>
      (await keyPage(member, busy, query({ sort, size: "25" }), totals)).rows.slice(0, 3).map((k) => k.name);
    expect(await page("checks")).toEqual([keyName(2), keyName(9), keyName(7)]);
    expect(await page("rejected")).toEqual([keyName(9), keyName(7), keyName(2)]);
    expect(await page("rate")).toEqual([keyName(9), keyName(7), keyName(2)]);
    const rows = (await keyPage(member, busy, query({ sort: "checks", dir: "asc", size: "100" }), totals))
      .rows;
    // fewest first: the keys without traffic (0 checks), then the three
    expect(rows.slice(-3).map((k) => k.name)).toEqual([keyName(7), keyName(9), keyName(2)]);
  });

  it("names each bad parameter and uses its default", () => {
    const { query: q, errors } = parseKeyListQuery(
      { sort: "hash", state: "gone", range: "2y", page: "-1" },
      KEY_RANGE_IDS,
    );
    expect(errors.map((e) => e.field)).toEqual(["sort", "page", "state", "range"]);
    expect(errors[0]?.message).toMatch(/^sort must be one of name, prefix, state/);
    expect(errors.find((e) => e.field === "range")?.message).toMatch(/^range must be one of 1h, 15m, 24h/);
    expect(q).toMatchObject({ sort: "name", dir: "asc", page: 1, range: "1h" });
    expect(q.state).toBeUndefined();
  });

  it("is not found for a member of another tenant, and never lists another tenant's keys", async () => {
    await expect(keyPage(stranger, busy, query({}))).rejects.toBeInstanceOf(NotFoundError);
    const theirs = await keyPage(stranger, other, query({ q: run }));
    expect(theirs.rows.map((k) => k.name)).toEqual([`${run}-theirs`]);
  });
});

describe("the plans page", () => {
  it("counts a plan's tenants without reading their configuration, for operators only", async () => {
    const plan = await anyPlan();
    const { doc, uses } = await plansDocument(system);
    expect(doc.tenants ?? []).toEqual([]);
    expect(doc.plans?.map((p) => p.name)).toContain(plan);
    const use = uses.get(plan);
    const count = await db().tenant.count({ where: { plan: { name: plan } } });
    expect(use?.tenants).toBe(count);
    expect(use?.some.length).toBe(Math.min(count, 5));
    await expect(plansDocument(member)).rejects.toBeInstanceOf(ForbiddenError);
  });
});
