// npm runs `prepare` in this directory when a project installs it by path
// (`npm install ./path/to/sluice/packages/client`, which links the directory rather than
// copying it): the link has nothing to import until dist/ is built, so build it here.
// Skipped where the build is not wanted: `npm pack`/`npm publish` build in `prepack`, and
// the repository's own install (its workspaces) uses the TypeScript sources directly.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const repository = resolve(here, "../..");
const command = process.env.npm_command ?? "";
const prefix = process.env.npm_config_local_prefix ?? "";
if (command === "pack" || command === "publish") process.exit(0);
if (prefix !== "" && resolve(prefix) === repository) process.exit(0);
await import("./build.mjs");
