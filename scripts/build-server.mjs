// Bundles server.ts (the custom server: the lean /api/check path) and server-app.ts (its
// child process: Next for the rest) into ES modules, .next/sluice/server.mjs and
// server-app.mjs, and the document worker's entry, document-worker.mjs; server.mjs is what `npm start`, the tests and the bench run
// with plain `node`. Ahead of time rather than through tsx at run time: tsx keeps function
// names by wrapping every closure in Object.defineProperty, which on the check path costs
// several per cent and reshapes V8's function maps on every request. Packages stay
// external (loaded from node_modules); "server-only" resolves to nothing, as in Next.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

await build({
  absWorkingDir: root,
  // the document worker (lib/config/document/worker) runs from its own file
  entryPoints: {
    server: "server.ts",
    "server-app": "server-app.ts",
    "document-worker": "lib/control/config/document/worker/document-worker.ts",
  },
  outdir: ".next/sluice",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: "linked",
  logLevel: "warning",
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
