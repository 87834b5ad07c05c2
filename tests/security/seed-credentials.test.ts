import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  freshDatabaseName,
  onServer,
  REPO_ROOT,
  runMigrate,
  urlForDatabase,
} from "../integration/migrate-helpers";

// Secrets are not printed: `npm start` printed the operator password and an all-tenant service token on
// every start, also when the password came from SLUICE_ADMIN_PASSWORD. Now the seed (as
// start.sh runs it) prints a generated password once, when the operator is created, never
// one the user chose, and keeps the demo credentials in a file readable by its owner only.

const dir = mkdtempSync(join(tmpdir(), "sluice-seed-"));
const databases: string[] = [];

afterAll(async () => {
  for (const name of databases) await onServer(`drop database if exists "${name}" with (force)`);
  rmSync(dir, { recursive: true, force: true });
});

async function freshDatabase(): Promise<string> {
  const name = freshDatabaseName();
  databases.push(name);
  await onServer(`create database "${name}"`);
  const migrated = await runMigrate(urlForDatabase(name), "apply");
  if (migrated.code !== 0) throw new Error(`migrate failed: ${migrated.stderr}`);
  return urlForDatabase(name);
}

function seed(databaseUrl: string, password: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        "--no-deprecation",
        "--import",
        "tsx",
        "--import",
        "./scripts/server-only-hook.mjs",
        "prisma/seed.ts",
        ...args,
      ],
      {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          NODE_ENV: "test",
          DATABASE_URL: databaseUrl,
          REDIS_PREFIX: `seedtest${databases.length}:`,
          NEXTAUTH_SECRET: "seed-credentials-test-secret-000000000",
          SLUICE_ADMIN_EMAIL: "operator@seed.test",
          SLUICE_ADMIN_PASSWORD: password,
        },
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`seed exited ${code}: ${output}`)),
    );
  });
}

const secretsIn = (text: string): string[] => text.match(/(sk|st)_demo_[A-Za-z0-9_-]{32}/g) ?? [];

describe("demo credentials at start", () => {
  it("a generated password is printed on the first start only; keys and tokens never; the file is mode 600", async () => {
    const url = await freshDatabase();
    const file = join(dir, "credentials-generated.txt");
    const password = "generated-Pw-0123456789";
    const first = await seed(url, password, ["--credentials", file, "--admin-password-generated"]);
    expect(first.split(password).length - 1).toBe(1);
    expect(secretsIn(first)).toEqual([]);
    expect(first).toContain(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const kept = readFileSync(file, "utf8");
    expect(kept).toContain(password);
    expect(secretsIn(kept).length).toBe(6); // five API keys and the service token

    const second = await seed(url, password, ["--credentials", file, "--admin-password-generated"]);
    expect(second).not.toContain(password);
    expect(secretsIn(second)).toEqual([]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  }, 120_000);

  it("a password from SLUICE_ADMIN_PASSWORD is never printed nor written", async () => {
    const url = await freshDatabase();
    const file = join(dir, "credentials-chosen.txt");
    const password = "chosen-by-the-user-Pw-42";
    const output = await seed(url, password, ["--credentials", file]);
    expect(output).not.toContain(password);
    expect(secretsIn(output)).toEqual([]);
    expect(readFileSync(file, "utf8")).not.toContain(password);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  }, 120_000);
});
