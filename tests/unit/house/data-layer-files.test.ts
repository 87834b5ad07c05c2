// lib/control/data keeps only data access (docs/architecture.md): every module there touches
// PostgreSQL (Prisma, its transactions, the pg driver) or Redis. Logic over plain data goes to
// the control plane's domain folders, which the data layer calls (.dependency-cruiser.cjs,
// "domain-below-data"). dependency-cruiser cannot say "must import", so this test does.

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

const ROOT = process.cwd();
const DATA = "lib/control/data/";

/** Imports that mean the module reads or writes a store itself. */
const STORE_IMPORT = new RegExp(
  [
    "@/lib/generated/prisma/", // the client and its row types
    "@prisma/",
    "pg",
    "ioredis",
    "@/lib/shared/redis/",
    // the connection and the transactions every write runs in
    "@/lib/control/data/(db|tx|config-change|account-change|audited-tenant-change)",
  ]
    .map((prefix) => `from "${prefix}[^"]*"`)
    .join("|"),
);

/** Data modules that reach a store only through another one, and why they sit here. */
const ALLOWED: Record<string, string> = {
  "config-backstop.ts": "hands the check front PostgreSQL's reads (config-versions.ts, reconcile.ts)",
  "edits/tenant-lists.ts": "edits a tenant's lists through its import (edits/document-edit.ts)",
  "document-text.ts": "validates against the plans and routes read by validation-context.ts",
  "usage/limit-candidates.ts":
    "reads the published version (config-versions.ts) and the tenant (usage/scope.ts)",
};

const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "-z", DATA], {
  cwd: ROOT,
  encoding: "utf8",
})
  .split("\0")
  .filter((file) => file.endsWith(".ts"));

const touchesStore = (file: string): boolean => STORE_IMPORT.test(readFileSync(join(ROOT, file), "utf8"));

describe("lib/control/data", () => {
  it("holds only modules that touch PostgreSQL or Redis, or are allowed by name", () => {
    expect(files.length).toBeGreaterThan(40);
    const pure = files.filter((file) => !touchesStore(file) && !(file.slice(DATA.length) in ALLOWED));
    // move each to a domain folder (scripts/house/move-domain-out-of-data.mjs), or split it
    expect(pure).toEqual([]);
  });

  it("allows only modules that exist and still need the allowance", () => {
    const stale = Object.keys(ALLOWED).filter((name) => {
      const file = DATA + name;
      return !files.includes(file) || touchesStore(file);
    });
    expect(stale).toEqual([]);
  });
});
