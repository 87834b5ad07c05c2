import { execFile } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

// Every way docs/client.md gives to install @sluice/client from a checkout, done as it says
// in a fresh project outside the repository: by directory path (a link whose `prepare`
// step builds dist/), by directory path with install scripts refused (built first), and
// from the packed tarball. Each project then imports the package from plain Node and runs
// the `sluice` bin's --help. The commands are the docs' own lines (checked first).

const REPOSITORY = fileURLToPath(new URL("../..", import.meta.url));
const PACKAGE_DIR = join(REPOSITORY, "packages/client");
const DIST = join(PACKAGE_DIR, "dist");
const scratch = mkdtempSync(join(tmpdir(), "sluice-install-"));
const DOCS = readFileSync(join(REPOSITORY, "docs/client.md"), "utf8");
const QUIET = ["--no-audit", "--no-fund", "--prefer-offline"];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, timeout: 240_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** A fresh adopter project. */
function project(name: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir);
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "adopter", private: true, type: "module" }),
  );
  return dir;
}

async function installed(dir: string, args: string[]): Promise<void> {
  const result = await run("npm", ["install", ...QUIET, ...args], dir);
  if (result.code !== 0) throw new Error(`npm install ${args.join(" ")} failed: ${result.stderr}`);
}

/** Imports the package and runs its bin, as a user of the project would. */
async function expectUsable(dir: string): Promise<void> {
  const script = `
    import { createClient, sluiceExpress, rateLimitHeaders } from "@sluice/client";
    import { lineDiff } from "@sluice/client/text";
    console.log(JSON.stringify([typeof createClient, typeof sluiceExpress, typeof rateLimitHeaders, typeof lineDiff]));`;
  writeFileSync(join(dir, "use.mjs"), script);
  const used = await run(process.execPath, ["use.mjs"], dir);
  expect(used.stderr).toBe("");
  expect(JSON.parse(used.stdout)).toEqual(["function", "function", "function", "function"]);
  const help = await run(join(dir, "node_modules/.bin/sluice"), ["--help"], dir);
  expect(help.stderr).toBe("");
  expect(help.code).toBe(0);
  expect(help.stdout).toMatch(/^sluice: /);
}

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("installing @sluice/client as docs/client.md says", () => {
  it("gives these commands", () => {
    expect(DOCS).toContain("npm install ./path/to/sluice/packages/client");
    expect(DOCS).toContain("npm run build -w @sluice/client");
    expect(DOCS).toContain("npm install --ignore-scripts ./path/to/sluice/packages/client");
    expect(DOCS).toContain("npm pack -w @sluice/client");
    expect(DOCS).toContain("npm install ./path/to/sluice-client-0.1.0.tgz");
  });

  it("by directory path: the link's prepare step builds dist/", async () => {
    rmSync(DIST, { recursive: true, force: true });
    const dir = project("by-path");
    await installed(dir, [PACKAGE_DIR]);
    expect(existsSync(join(DIST, "index.js"))).toBe(true);
    await expectUsable(dir);
  }, 300_000);

  it("by directory path with install scripts refused, built first", async () => {
    rmSync(DIST, { recursive: true, force: true });
    const built = await run("npm", ["run", "build", "-w", "@sluice/client"], REPOSITORY);
    expect(built.code, built.stderr).toBe(0);
    const dir = project("by-path-no-scripts");
    await installed(dir, ["--ignore-scripts", PACKAGE_DIR]);
    await expectUsable(dir);
  }, 300_000);

  it("from the packed tarball", async () => {
    const packed = await run(
      "npm",
      ["pack", "-w", "@sluice/client", "--pack-destination", scratch],
      REPOSITORY,
    );
    expect(packed.code, packed.stderr).toBe(0);
    const tarball = readdirSync(scratch).find((name) => name.endsWith(".tgz"));
    expect(tarball).toBe("sluice-client-0.1.0.tgz");
    const dir = project("by-tarball");
    await installed(dir, [join(scratch, tarball ?? "")]);
    await expectUsable(dir);
  }, 300_000);
});
