// Builds the publishable package: dist/index.js, dist/text.js, dist/envoy.js and dist/cli.js (ESM, bundled per entry by
// esbuild; `yaml` and `diff` stay dependencies) and the .d.ts files (tsc), whose relative imports get
// the ".js" extension Node's ESM resolution (and TypeScript's node16 mode) require.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
const dist = join(here, "dist");
rmSync(dist, { recursive: true, force: true });

await build({
  entryPoints: {
    index: join(here, "src/index.ts"),
    text: join(here, "src/text.ts"),
    envoy: join(here, "src/envoy.ts"),
    cli: join(here, "src/cli/main.ts"),
  },
  outdir: dist,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: ["yaml", "diff"],
  logLevel: "warning",
});

const tsc = require.resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", join(here, "tsconfig.build.json")], { stdio: "inherit" });

function declarations(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? declarations(path) : path.endsWith(".d.ts") ? [path] : [];
  });
}
const relative = /(from |import\()"(\.{1,2}\/[^"]+?)"/g;
for (const file of declarations(join(dist, "types"))) {
  const text = readFileSync(file, "utf8");
  const fixed = text.replace(relative, (_match, lead, path) => {
    const target = join(dirname(file), path);
    const isDir = (() => {
      try {
        return statSync(target).isDirectory();
      } catch {
        return false;
      }
    })();
    return `${lead}"${path}${isDir ? "/index" : ""}.js"`;
  });
  writeFileSync(file, fixed);
}
