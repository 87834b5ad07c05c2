import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_URL, BOOTSTRAP } from "./setup";

// The package as a user gets it: `npm pack` (which builds dist/), the tarball installed
// into a scratch project outside the repository, then imported, type-checked and run
// (`sluice --help`) there, with no path back to the repository's sources.

const PACKAGE_DIR = fileURLToPath(new URL("../../packages/client", import.meta.url));
const TSC = fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "sluice-package-"));
const project = join(scratch, "project");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: { ...process.env, ...env }, timeout: 180_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

beforeAll(async () => {
  const packed = await run("npm", ["pack", "--pack-destination", scratch, "--silent"], PACKAGE_DIR);
  expect(packed.stderr + packed.stdout).not.toMatch(/ERR!/);
  const tarball = readdirSync(scratch).find((name) => name.endsWith(".tgz"));
  if (!tarball) throw new Error(`npm pack made no tarball: ${packed.stderr}`);
  mkdirSync(project);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "adopter", private: true, type: "module" }),
  );
  const installed = await run(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", join(scratch, tarball)],
    project,
  );
  if (installed.code !== 0) throw new Error(`npm install of the tarball failed: ${installed.stderr}`);
}, 300_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the packed @sluice/client", () => {
  it("ships the build, not the sources", async () => {
    const files = readdirSync(join(project, "node_modules/@sluice/client"), { recursive: true }).map(String);
    expect(files).toContain(join("dist", "index.js"));
    expect(files).toContain(join("dist", "types", "index.d.ts"));
    expect(files.some((file) => file.startsWith("src"))).toBe(false);
  });

  it("imports and checks against the running Sluice from plain Node", async () => {
    const script = `
      import { createClient, sluiceExpress, withSluice } from "@sluice/client";
      const client = createClient({ url: process.env.SLUICE_URL, token: process.env.SLUICE_TOKEN, timeoutMs: 5000 });
      const decision = await client.check({ tenant: "no-such-tenant-anywhere", dryRun: true });
      console.log(JSON.stringify({ reason: decision.reason, source: decision.source,
        express: typeof sluiceExpress, next: typeof withSluice }));`;
    writeFileSync(join(project, "use.mjs"), script);
    const used = await run(process.execPath, ["use.mjs"], project, {
      SLUICE_URL: APP_URL,
      SLUICE_TOKEN: BOOTSTRAP,
    });
    expect(used.stderr).toBe("");
    expect(JSON.parse(used.stdout)).toEqual({
      reason: "unknown_tenant",
      source: "sluice",
      express: "function",
      next: "function",
    });
  });

  it("type-checks for a TypeScript user (node16 resolution, strict, library types checked)", async () => {
    writeFileSync(
      join(project, "use.ts"),
      `import { createClient, type CheckResult, type DenyAnswer } from "@sluice/client";
       const answer: DenyAnswer = "queue";
       const client = createClient({ url: "http://sluice.internal", token: "st_x" });
       export const pending: Promise<CheckResult> = client.check({ apiKey: "sk_x", route: "GET /a" });
       export { answer };
       // @ts-expect-error: a check names an API key or a tenant, not a number
       client.check({ apiKey: 42 });`,
    );
    const compilerOptions = { strict: true, module: "node16", moduleResolution: "node16", target: "es2022" };
    const tsconfig = {
      compilerOptions: { ...compilerOptions, lib: ["es2023", "dom"], types: [], noEmit: true },
    };
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ ...tsconfig, files: ["use.ts"] }));
    const checked = await run(process.execPath, [TSC, "-p", "."], project);
    expect(checked.stdout + checked.stderr).toBe("");
    expect(checked.code).toBe(0);
  });

  it("exports the envoy migration on its subpath (@sluice/client/envoy)", async () => {
    const script = `
      import { convertEnvoyConfig, descriptorCheck } from "@sluice/client/envoy";
      const converted = convertEnvoyConfig("domain: d\\ndescriptors:\\n  - key: k\\n    rate_limit: { unit: minute, requests_per_unit: 3 }\\n", { plan: "free" });
      console.log(JSON.stringify({ pattern: converted.document.tenants[0].routes[0].pattern,
        check: descriptorCheck([{ key: "k", value: "v" }]) }));`;
    writeFileSync(join(project, "envoy.mjs"), script);
    const used = await run(process.execPath, ["envoy.mjs"], project);
    expect(used.stderr).toBe("");
    expect(JSON.parse(used.stdout)).toEqual({
      pattern: "* /k/:k",
      check: { route: "POST /k/v", subject: "/k/v" },
    });
  });

  it("installs the sluice command, which runs from the build", async () => {
    const help = await run(join(project, "node_modules/.bin/sluice"), ["--help"], project);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/sluice/);
    expect(help.stdout).toMatch(/config/);
  });
});
