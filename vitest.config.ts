import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));
const emptyModule = fileURLToPath(new URL("./tests/fixtures/empty-module.ts", import.meta.url));
// The repository's tests use the client's sources; the package's own build is tested by
// tests/client/package.test.ts from a packed tarball.
const clientSources = fileURLToPath(new URL("./packages/client/src/index.ts", import.meta.url));
const clientText = fileURLToPath(new URL("./packages/client/src/text.ts", import.meta.url));
const clientEnvoy = fileURLToPath(new URL("./packages/client/src/envoy.ts", import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@sluice\/client$/, replacement: clientSources },
      { find: /^@sluice\/client\/text$/, replacement: clientText },
      { find: /^@sluice\/client\/envoy$/, replacement: clientEnvoy },
      { find: "@", replacement: root },
      { find: "server-only", replacement: emptyModule },
    ],
  },
  test: {
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node" },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: [
            "tests/integration/**/*.test.ts",
            "tests/security/**/*.test.ts",
            "tests/client/**/*.test.ts",
          ],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        // Several instances and restarts (scripts/test/run-suites.sh "deploys"): own processes and HAProxy.
        extends: true,
        test: {
          name: "deploys",
          include: ["tests/deploys/**/*.test.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        // failover and PostgreSQL-down tests on throwaway servers (SLUICE_TEST_HA_PORT)
        test: {
          name: "reliability",
          include: ["tests/reliability/**/*.test.ts"],
          environment: "node",
          testTimeout: 90_000,
          hookTimeout: 90_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
