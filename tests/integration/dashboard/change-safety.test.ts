// Change safety against real PostgreSQL (and Redis for the publish): a save's undo, "revert
// this change" (three ways, refused when a later change touched the same thing), and a
// rollback that also ends later overrides and undoes later alert rule changes. Every one is
// its own audited version; a refused one writes nothing.
import { beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/shared/principal";
import { ConflictError } from "@/lib/control/errors/errors";
import { saveLimit } from "@/lib/control/edits/save-limit";
import { revertEntry, undoVersion } from "@/lib/control/data/edits/revert-change";
import { rollbackConfig } from "@/lib/control/data/config-rollback";
import { rollbackPreview } from "@/lib/control/data/edits/rollback-preview";
import { listHistory } from "@/lib/control/data/config-history";
import { readTenantDoc } from "@/lib/control/data/edits/document-edit";
import { createOverride } from "@/lib/control/data/overrides";
import { createAlertEndpoint } from "@/lib/control/data/alerts/endpoints";
import { createAlertRule, disableAlertRule } from "@/lib/control/data/alerts/rules";
import { newestVersion } from "@/lib/control/data/config-parts/part-reads";
import { db } from "@/lib/control/data/db";
import { anyPlan, makeMember, makeTenant, system, uniqueSlug } from "./fixtures";

const slug = uniqueSlug("csafe");
let editor: Principal;
let tenantId = "";

beforeAll(async () => {
  tenantId = await makeTenant(slug, await anyPlan());
  editor = await makeMember(`${slug}@editor.test`, tenantId, "editor");
  await createAlertEndpoint(system, slug, {
    name: "hook",
    url: "http://127.0.0.1:9/hook",
    allowPrivate: true,
  });
});

const tenantLimit = { kind: "tenant" as const, tenant: slug };
const keyLimit = { kind: "key" as const, tenant: slug, key: "k1" };

async function setCap(value: number, target: typeof tenantLimit | typeof keyLimit = tenantLimit) {
  const doc = await readTenantDoc(editor, slug, "viewer");
  const list = target.kind === "key" ? (doc.keys.find((k) => k.name === "k1")?.limits ?? []) : doc.limits;
  const name = target.kind === "key" ? "key-cap" : "own-cap";
  const exists = list.some((l) => l.name === name);
  const limit = {
    name,
    by: "tenant" as const,
    algorithm: "fixed_window" as const,
    limit: value,
    window: "1m",
  };
  const saved = await saveLimit(editor, target, { originalName: exists ? name : null, limit });
  if (saved.configVersion === null) throw new Error("the save changed nothing");
  return saved.configVersion;
}

const capOf = async (name = "own-cap") =>
  (await readTenantDoc(editor, slug, "viewer")).limits.find((l) => l.name === name)?.limit;
const entryOf = async (version: number) =>
  db().auditEntry.findFirstOrThrow({ where: { configVersion: version, action: "tenant.update" } });

describe("undo of a save", () => {
  it("restores exactly the state before the save, as a new version audited config.undo", async () => {
    await setCap(15);
    const before = await readTenantDoc(editor, slug, "viewer");
    const saved = await setCap(20);
    expect(await capOf()).toBe(20);
    const undone = await undoVersion(editor, saved, null);
    expect(undone.configVersion).toBeGreaterThan(saved);
    expect(await readTenantDoc(editor, slug, "viewer")).toEqual(before);
    const notes = await db().auditEntry.findMany({ where: { configVersion: undone.configVersion } });
    expect(notes.map((n) => n.action).sort()).toEqual(["config.undo", "tenant.update"]);
    expect(notes.find((n) => n.action === "config.undo")?.actorLabel).toBe(`${slug}@editor.test`);
  });

  it("is refused, writing nothing, when a later save changed the same limit", async () => {
    const saved = await setCap(30);
    await setCap(40);
    const version = await newestVersion();
    const error = await undoVersion(editor, saved, null).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as Error).message).toContain("limits[name=own-cap].limit: now 40, this change made it 30");
    expect(await newestVersion()).toBe(version);
    expect(await capOf()).toBe(40);
  });
});

describe("revert this change", () => {
  it("reverts an earlier change and keeps a later change of another limit", async () => {
    const earlier = await setCap(50);
    await setCap(7, keyLimit);
    const result = await revertEntry(editor, (await entryOf(earlier)).id.toString(), null);
    expect(result.configVersion).not.toBeNull();
    expect(await capOf()).toBe(40);
    const doc = await readTenantDoc(editor, slug, "viewer");
    expect(doc.keys.find((k) => k.name === "k1")?.limits[0]?.limit).toBe(7);
    const note = await db().auditEntry.findFirst({
      where: { configVersion: result.configVersion, action: "config.revert" },
    });
    expect(note?.after).toMatchObject({ revertedVersion: earlier });
  });

  it("says what changed since and refuses when a later change touched the same thing", async () => {
    const earlier = await setCap(60);
    await setCap(61);
    const version = await newestVersion();
    const error = await revertEntry(editor, (await entryOf(earlier)).id.toString(), null).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as Error).message).toMatch(/changed since .*limits\[name=own-cap\]\.limit: now 61/i);
    expect(await newestVersion()).toBe(version);
  });

  it("refuses a change already undone, and another tenant's entry is not found", async () => {
    const saved = await setCap(62);
    const id = (await entryOf(saved)).id.toString();
    await revertEntry(editor, id, null);
    await expect(revertEntry(editor, id, null)).rejects.toThrow(/already undone/);
    const foreign = await db().auditEntry.findFirstOrThrow({
      where: { tenantId: { not: null }, NOT: { tenantId } },
    });
    await expect(revertEntry(editor, foreign.id.toString(), null)).rejects.toThrow(/No audit entry/);
  });
});

describe("rollback", () => {
  it("restores limits, ends later overrides and undoes later alert rule changes, as its prompt says", async () => {
    const early = await createAlertRule(system, slug, {
      name: "early",
      kind: "degraded",
      forSeconds: 60,
      endpoint: "hook",
    });
    const target = await setCap(70);
    await setCap(71);
    const made = await createOverride(
      editor,
      {
        tenant: slug,
        limit: "own-cap",
        value: 500,
        reason: "later",
        endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
      null,
    );
    await createAlertRule(system, slug, {
      name: "later",
      kind: "degraded",
      forSeconds: 60,
      endpoint: "hook",
    });
    await disableAlertRule(system, slug, early.id);

    const history = await listHistory(editor, { tenant: slug, limit: 20 });
    expect(history.versions[0]?.rollbackable).toBe(false);
    expect(history.versions.find((v) => v.version === target)?.rollbackable).toBe(true);

    const preview = await rollbackPreview(editor, { version: target, tenant: slug });
    expect(preview.current).toContain("limit: 71");
    expect(preview.target).toContain("limit: 70");
    expect(preview.result.overridesEnded).toHaveLength(1);
    const unchanged = await newestVersion();

    const rolled = await rollbackConfig(editor, { version: target, tenant: slug, dryRun: false }, null);
    expect(unchanged).toBeLessThan(rolled.configVersion ?? 0);
    expect(await capOf()).toBe(70);
    expect(rolled.overridesEnded).toEqual([`${slug}: own-cap (${made.id})`]);
    expect(rolled.alertRulesDisabled).toEqual(["later"]);
    expect(rolled.alertRulesEnabled).toEqual(["early"]);
    const override = await db().override.findUniqueOrThrow({ where: { id: made.id } });
    expect(override.endedAt).not.toBeNull();
    const rules = await db().alertRule.findMany({ where: { tenant: { slug } }, orderBy: { name: "asc" } });
    expect(rules.map((r) => [r.name, r.disabledAt === null])).toEqual([
      ["early", true],
      ["later", false],
    ]);
    const actions = (await db().auditEntry.findMany({ where: { configVersion: rolled.configVersion } })).map(
      (e) => e.action,
    );
    expect(actions.sort()).toEqual([
      "alert-rule.disable",
      "alert-rule.enable",
      "config.rollback",
      "override.end",
      "tenant.update",
    ]);
  });
});
