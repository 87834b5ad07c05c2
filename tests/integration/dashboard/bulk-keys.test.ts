// createApiKeys (used to seed many keys, e.g. the bench's 1,000): all keys in one change,
// so one config version; a clash refuses the whole batch and leaves nothing behind; the
// caller's role is checked as for one key.
import { beforeAll, expect, it } from "vitest";
import type { Principal } from "@/lib/shared/principal";
import { createApiKey, createApiKeys, listApiKeys } from "@/lib/control/data/api-keys";
import { ConflictError, NotFoundError } from "@/lib/control/errors/errors";
import { db } from "@/lib/control/data/db";
import { anyPlan, makeMember, makeTenant, uniqueSlug } from "./fixtures";

const slug = uniqueSlug("bulk-keys");
const other = uniqueSlug("bulk-other");
let editor: Principal;

const version = async (): Promise<number> =>
  (await db().configVersion.aggregate({ _max: { version: true } }))._max.version ?? 0;

beforeAll(async () => {
  const plan = await anyPlan();
  const id = await makeTenant(slug, plan);
  await makeTenant(other, plan);
  editor = await makeMember(`${slug}@editor.test`, id, "editor");
});

it("creates every key in one version, each with its own secret", async () => {
  const before = await version();
  const created = await createApiKeys(editor, slug, [{ name: "b1" }, { name: "b2" }, { name: "b3" }]);
  expect(created.map((k) => k.name)).toEqual(["b1", "b2", "b3"]);
  expect(new Set(created.map((k) => k.key)).size).toBe(3);
  expect(await version()).toBe(before + 1);
});

it("refuses the whole batch on a clash, naming the field, and creates none", async () => {
  await createApiKey(editor, slug, { name: "taken" });
  const attempt = createApiKeys(editor, slug, [{ name: "fresh" }, { name: "taken" }]);
  await expect(attempt).rejects.toBeInstanceOf(ConflictError);
  const names = (await listApiKeys(editor, slug)).map((k) => k.name);
  expect(names).not.toContain("fresh");
});

it("answers not found for another tenant", async () => {
  await expect(createApiKeys(editor, other, [{ name: "x" }])).rejects.toBeInstanceOf(NotFoundError);
});
