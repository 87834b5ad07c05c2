import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// pg 8 warns, and pg 9 will fail, when a query is sent on a client already running one, as
// Prisma's interpreter does inside a transaction. Each case runs in its own process with
// --throw-deprecation, so that warning makes it exit with an error (a warning is given once
// per process: within this one, an earlier test could have used it up).

const run = promisify(execFile);

async function overlap(mode: "plain" | "serial" | "prisma"): Promise<unknown> {
  const { stdout } = await run(
    process.execPath,
    [
      "--throw-deprecation",
      "--import",
      "tsx",
      "--import",
      "./scripts/server-only-hook.mjs",
      "tests/integration/data/overlapping-queries.ts",
      mode,
    ],
    { env: process.env },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
}

describe("SerialPgClient", () => {
  it("a plain pg client given overlapping queries is warned (the check below can fail)", async () => {
    await expect(overlap("plain")).rejects.toThrow(/already executing a query/);
  });

  it("runs overlapping queries in turn on one client: no warning, each its own answer, past a failure", async () => {
    expect(await overlap("serial")).toEqual([12, "error: division by zero", 4, 3, 5]);
  });

  it("is the client of the app's Prisma pool: a transaction reading four relations is not warned", async () => {
    const tenants = (await overlap("prisma")) as Array<{ slug: string; read: number[]; counted: number[] }>;
    expect(tenants.length).toBeGreaterThan(0);
    for (const t of tenants) expect(t.read, t.slug).toEqual(t.counted);
    // the seed gives acme keys, limits and routes: the relations were read, not empty
    expect(
      tenants
        .find((t) => t.slug === "acme")
        ?.read.slice(0, 3)
        .every((n) => n > 0),
    ).toBe(true);
  });
});
