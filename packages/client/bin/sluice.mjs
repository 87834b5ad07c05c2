#!/usr/bin/env node
// The `sluice` command. It runs the TypeScript sources directly through tsx's loader
// (resolved from this package, so it works from any working directory); no build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
