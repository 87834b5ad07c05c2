import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { anyPlan, putTenants, uniqueSlug } from "../admin/http";
import { checkWithKey } from "../bulk/bulk-helpers";
import { sluice, WORKDIR } from "./run-cli";

// `sluice keys create-many` against the running app (docs/cli.md): secrets on stdout or in
// a new mode-600 file, a file of names or of { name, expiresAt }, a refusal naming the item.

const slug = uniqueSlug("cli-bulk");

beforeAll(async () => {
  await putTenants([{ slug, plan: await anyPlan() }]);
});

describe("sluice keys create-many", () => {
  it("--names prints name<TAB>secret lines; each secret works on /api/check", async () => {
    const run = await sluice(["keys", "create-many", slug, "--names", "web,batch"]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((line) => line.split("\t"));
    expect(lines.map(([name]) => name)).toEqual(["web", "batch"]);
    expect(run.stderr).toMatch(/shown only now/);
    expect(await checkWithKey(lines[0]?.[1] ?? "")).toMatchObject({ allowed: true });
  });

  it("--file and --out: the secrets go to a new file only its owner can read, never over one", async () => {
    const file = join(WORKDIR, "keys.json");
    writeFileSync(file, JSON.stringify([{ name: "f1", expiresAt: "2099-01-01T00:00:00Z" }, "f2"]));
    const out = join(WORKDIR, "secrets.json");
    const run = await sluice(["keys", "create-many", slug, "--file", file, "--out", out, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("");
    const written = JSON.parse(readFileSync(out, "utf8")) as { keys: { name: string; key: string }[] };
    expect(written.keys.map((k) => k.name)).toEqual(["f1", "f2"]);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const again = await sluice(["keys", "create-many", slug, "--names", "f3", "--out", out]);
    expect(again.code).toBe(2);
    expect(again.stdout).toMatch(/^f3\tsk_/); // the key exists: its secret is not lost
    expect(again.stderr).toMatch(/could not write/);
  });

  it("a name taken refuses the list naming the item, and creates none", async () => {
    const run = await sluice(["keys", "create-many", slug, "--names", "new1,web"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/keys\[1\]\.name/);
    const list = await sluice(["keys", "list", slug]);
    expect(list.stdout).not.toMatch(/new1/);
    const neither = await sluice(["keys", "create-many", slug]);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toMatch(/--names a,b,c or --file/);
  });
});
