#!/usr/bin/env node
// The `sluice` command. It runs the TypeScript sources directly through tsx's loader
// (resolved from this package, so it works from any working directory); no build step.
import { register } from "tsx/esm/api";

register();
// `sluice ... | head -1`: a reader gone early is not an error of ours.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
