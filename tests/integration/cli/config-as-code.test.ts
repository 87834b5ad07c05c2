// The `sluice` CLI end to end against the running app, as a CI job would use it: export,
// edit a limit in the YAML text, diff (exit 1, readable), apply (new version), diff again
// (exit 0), and the new limit enforced on /api/check; an invalid file exits 2 naming
// file:line:col of each error and changes nothing. Works on a tenant of its own.
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { anyPlan, planLimitsOff, uniqueSlug } from "../admin/http";
import { sluice, WORKDIR } from "./run-cli";

const slug = uniqueSlug("cli");
const route = "GET /cli-test/items/1";
let secret = "";

// A token bucket (1h): no window boundary can pass mid-test and empty the counters.
function tenantFile(plan: string, off: Record<string, unknown>[], limit: number): string {
  const overrides = off.map((o) => `      - ${JSON.stringify(o)}\n`).join("");
  return `tenants:
  - slug: ${slug}
    name: CLI test
    plan: ${plan}
    limits:
${overrides}      - { name: cli-rpm, by: key, algorithm: token_bucket, limit: ${limit}, window: 1h }
`;
}

/** Dry-run checks until the servers hold the new limit (pub/sub, or the version poll). */
async function waitForLimit(limit: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const run = await sluice(["check", "--api-key", secret, "--route", route, "--dry-run", "--json"]);
    const limits =
      (JSON.parse(run.stdout || "{}") as { limits?: { name: string; limit: number }[] }).limits ?? [];
    if (limits.some((l) => l.name === "cli-rpm" && l.limit === limit)) return;
    if (Date.now() > deadline) throw new Error(`limit ${limit} not in force: ${run.stdout}${run.stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A loopback port nothing listens on (bound, then closed). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

beforeAll(async () => {
  const plan = await anyPlan();
  writeFileSync(join(WORKDIR, "tenant.yaml"), tenantFile(plan, await planLimitsOff(plan), 50));
  const applied = await sluice(["config", "apply", "tenant.yaml"]);
  expect(applied.stderr).toBe("");
  expect(applied.stdout).toMatch(new RegExp(`config version \\d+[\\s\\S]*create tenant ${slug}`));
  const created = await sluice(["keys", "create", slug, "backend"]);
  expect(created.code).toBe(0);
  secret = created.stdout.trim();
  expect(secret.length).toBeGreaterThan(20);
});

// Each step spawns the real bin (node + tsx, about a second on a busy machine).
describe("sluice config, as in CI", { timeout: 120_000 }, () => {
  it("export, edit, diff, apply, diff again, and the new limit is enforced", async () => {
    const exported = await sluice(["config", "export"]);
    expect(exported.code).toBe(0);
    const file = join(WORKDIR, "sluice.yaml");
    const line = `{ name: cli-rpm, by: key, algorithm: token_bucket, limit: 50, window: 1h }`;
    expect(exported.stdout).toContain(line);
    writeFileSync(file, exported.stdout);
    expect((await sluice(["config", "diff", "sluice.yaml"])).code).toBe(0); // unchanged export

    // edit our tenant's line (earlier runs' tenants have the same one)
    const text = readFileSync(file, "utf8");
    const at = text.indexOf(line, text.indexOf(`slug: ${slug}\n`));
    writeFileSync(
      file,
      text.slice(0, at) + line.replace("limit: 50", "limit: 3") + text.slice(at + line.length),
    );
    const diff = await sluice(["config", "diff", "sluice.yaml"]);
    expect(diff.code).toBe(1);
    expect(diff.stdout).toContain(`1 change would be applied:\n  ~ update tenant ${slug}`);
    expect(diff.stdout).toContain(`\n-      - ${line}\n+      - ${line.replace("limit: 50", "limit: 3")}\n`);
    expect(diff.stdout).toMatch(/^--- server\n\+\+\+ sluice\.yaml\n@@ -\d+,\d+ \+\d+,\d+ @@$/m);

    const apply = await sluice(["config", "apply", "sluice.yaml"]);
    expect(apply.code).toBe(0);
    expect(apply.stdout).toMatch(
      new RegExp(`^Applied 1 change; config version \\d+\\.\\n  ~ update tenant ${slug}`),
    );
    const again = await sluice(["config", "diff", "sluice.yaml"]);
    expect(again).toMatchObject({ code: 0, stderr: "" });
    expect(again.stdout).toMatch(/^No changes/);
    expect((await sluice(["config", "apply", "sluice.yaml"])).stdout).toMatch(/^No change/);

    await waitForLimit(3);
    const reset = await sluice(["reset", "--tenant", slug, "--limit", "cli-rpm", "--key", "backend"]);
    expect(reset.code).toBe(0);
    for (let i = 0; i < 3; i += 1) {
      const allowed = await sluice(["check", "--api-key", secret, "--route", route]);
      expect(allowed.code, allowed.stdout + allowed.stderr).toBe(0);
      expect(allowed.stdout).toMatch(/^allowed/);
    }
    const denied = await sluice(["check", "--api-key", secret, "--route", route]);
    expect(denied.code).toBe(1);
    expect(denied.stdout).toMatch(/^denied[\s\S]*DENY cli-rpm: 0 of 3 left/);
  });

  it("an invalid file exits 2 with every error at its line and column, and changes nothing", async () => {
    const bad = `tenants:
  - slug: ${slug}
    plan: no-such-plan-${slug}
    limits:
      - { name: cli-rpm, by: key, algorithm: fixed_window, limit: -5, window: 1m }
      - { name: Bad Name, by: key, algorithm: fixed_window, limit: 5, window: 0s }
`;
    writeFileSync(join(WORKDIR, "bad.yaml"), bad);
    const lines = bad.split("\n");
    const limitAt = `5:${lines[4]!.indexOf("-5") + 1}`;
    const nameAt = `6:${lines[5]!.indexOf("Bad Name") + 1}`;
    const windowAt = `6:${lines[5]!.indexOf("0s") + 1}`;
    for (const command of ["diff", "apply"]) {
      const run = await sluice(["config", command, "bad.yaml"]);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain(`bad.yaml:${limitAt}: tenants[0].limits[0].limit: must be at least 1\n`);
      expect(run.stderr).toContain(`bad.yaml:${nameAt}: tenants[0].limits[1].name: must be`);
      expect(run.stderr).toContain(`bad.yaml:${windowAt}: tenants[0].limits[1].window: must be`);
      expect(run.stderr).toMatch(/sluice: The document has \d+ errors; nothing was changed\.\n$/);
    }
    writeFileSync(join(WORKDIR, "syntax.yaml"), "tenants:\n  - slug: [\n");
    const syntax = await sluice(["config", "apply", "syntax.yaml"]);
    expect(syntax.code).toBe(2);
    expect(syntax.stderr).toMatch(
      /^syntax\.yaml:3:1: .+\nsluice: syntax\.yaml is not valid YAML; nothing was sent\.\n$/,
    );
    const state = await sluice(["state", "--tenant", slug, "--key", "backend", "--route", route]);
    expect(state.stdout).toMatch(/cli-rpm \(\w+\): \d+ of 3 per 3600000 ms left/); // still 3
  });
});

describe("sluice state, reset, keys", { timeout: 120_000 }, () => {
  it("state reads the counters, reset clears them, a revoked key is refused", async () => {
    await sluice(["check", "--api-key", secret, "--route", route]);
    const used = await sluice(["state", "--tenant", slug, "--key", "backend", "--route", route]);
    expect(used.code).toBe(0);
    expect(used.stdout).toMatch(
      /cli-rpm \(\w+\): 0 of 3 per 3600000 ms left; would deny, retry after \d+ ms/,
    );
    const reset = await sluice(["reset", "--tenant", slug, "--limit", "cli-rpm"]);
    expect(reset.stdout).toMatch(/^Reset cli-rpm: [1-9]\d* counters? cleared\./);
    const fresh = await sluice(["state", "--tenant", slug, "--key", "backend", "--route", route, "--json"]);
    const limits = (JSON.parse(fresh.stdout) as { limits: { name: string; remaining: number }[] }).limits;
    expect(limits.find((l) => l.name === "cli-rpm")?.remaining).toBe(3);

    const list = await sluice(["keys", "list", slug]);
    expect(list.stdout).toMatch(/^backend\t\S+…\n$/);
    const revoked = await sluice(["keys", "revoke", slug, "backend"]);
    expect(revoked).toMatchObject({ code: 0, stdout: `Revoked key backend of tenant ${slug}.\n` });
    const check = await sluice(["check", "--api-key", secret, "--route", route]);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/^denied \(revoked_key\)/);
  });

  it("bad arguments and an unreachable server exit 2 with a sentence", async () => {
    const noUrl = await sluice(["state", "--tenant", slug], { SLUICE_URL: undefined });
    expect(noUrl).toMatchObject({ code: 2, stdout: "" });
    expect(noUrl.stderr).toMatch(/give --url or set SLUICE_URL/);
    const port = await closedPort();
    const down = await sluice(["config", "export", "--url", `http://127.0.0.1:${port}`]);
    expect(down.code).toBe(2);
    expect(down.stderr).toBe(`sluice: Could not reach Sluice at http://127.0.0.1:${port}: ECONNREFUSED.\n`);
    const badToken = await sluice(["config", "export", "--token", "not-a-token"]);
    expect(badToken.code).toBe(2);
    expect(badToken.stderr).toMatch(/^sluice: Export failed \(401 \w+\)/);
    const unknown = await sluice(["keys", "create", slug, "x", "--colour"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--colour/);
  });
});
