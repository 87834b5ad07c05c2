import { defineConfig } from "@playwright/test";

// Debian's Chromium (Playwright cannot download browsers here). The app is started by
// scripts/test/run-suites.sh; APP_URL says where.
export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/support/warm-up.ts",
  outputDir: ".data/test-results",
  timeout: 30_000,
  // Assertions wait up to 10 s, not 5: CI shares two cores among the app, PostgreSQL,
  // Redis and Chromium, and one render past 5 s failed a run that was otherwise green.
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  use: {
    baseURL: process.env.APP_URL ?? "http://localhost:3100",
    video: "off",
    screenshot: "only-on-failure",
    trace: "off",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
});
