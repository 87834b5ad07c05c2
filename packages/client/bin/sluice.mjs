#!/usr/bin/env node
// The `sluice` command. An installed package runs its build (dist/cli.js); in a checkout of
// Sluice, where the TypeScript sources sit next to this file, it runs them through tsx's
// loader instead, so the command never lags behind the sources for want of a rebuild.
import { existsSync } from "node:fs";

// `sluice ... | head -1`: a reader gone early is not an error of ours.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});
const sources = new URL("../src/cli/main.ts", import.meta.url);
let cli;
if (existsSync(sources)) {
  const { register } = await import("tsx/esm/api");
  register();
  cli = await import(sources.href);
} else {
  cli = await import("../dist/cli.js");
}
process.exitCode = await cli.main(process.argv.slice(2));
