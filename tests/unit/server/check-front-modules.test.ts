import { fileURLToPath } from "node:url";
import { build, type Metafile } from "esbuild";
import { describe, expect, it } from "vitest";

// The check front (lib/server/front.ts, what server.ts starts to answer checks) loads the
// check path, usage recording and the shared kernel: no Prisma, no PostgreSQL driver, no
// control plane, no usage storage or reads. PostgreSQL reaches it only through what the
// process wires in (the ConfigBackstop from server.ts). The module list is esbuild's, as
// scripts/build-server.mjs bundles it: runtime imports, type-only ones dropped.

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const FRONT = "lib/server/front.ts";

/** Every module the entry loads, and every package it imports, each with who imports it. */
async function loaded(entry: string): Promise<Map<string, string>> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform: "node",
    format: "esm",
    packages: "external",
    logLevel: "silent",
    plugins: [
      {
        name: "server-only",
        setup(builder) {
          builder.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "empty" }));
          builder.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "", loader: "js" }));
        },
      },
    ],
  });
  const inputs: Metafile["inputs"] = result.metafile.inputs;
  const importer = new Map<string, string>([[entry, ""]]);
  for (const [path, input] of Object.entries(inputs)) {
    for (const imported of input.imports) if (!importer.has(imported.path)) importer.set(imported.path, path);
  }
  return importer;
}

const FORBIDDEN: ReadonlyArray<[string, RegExp]> = [
  ["Prisma", /^(@prisma\/|lib\/generated\/)/],
  ["the PostgreSQL driver", /^(pg|pg-[a-z-]+)(\/|$)/],
  ["the control plane", /^lib\/control\//],
  ["usage storage or reads", /^lib\/usage\/(store|read)\//],
  ["Next.js", /^next(\/|$)/],
];

describe("the check front's modules", () => {
  it("include no Prisma, PostgreSQL driver, control plane or usage storage", async () => {
    const modules = await loaded(FRONT);
    const chain = (path: string): string => {
      const steps = [path];
      for (let at = modules.get(path); at; at = modules.get(at)) steps.unshift(at);
      return steps.join(" -> ");
    };
    const found: string[] = [];
    for (const path of modules.keys()) {
      for (const [what, pattern] of FORBIDDEN) if (pattern.test(path)) found.push(`${what}: ${chain(path)}`);
    }
    expect(found).toEqual([]);
    // the walk saw the check path itself (a broken walk would pass the test above vacuously)
    expect([...modules.keys()]).toEqual(
      expect.arrayContaining(["lib/check/runtime.ts", "lib/usage/record/recorder.ts", "ioredis"]),
    );
  });
});
