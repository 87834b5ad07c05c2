import { defineConfig } from "@playwright/test";

// Debian's Chromium (Playwright cannot download browsers here). The app is started by
// scripts/test/run-suites.sh; APP_URL says where.
export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/support/warm-up.ts",
  outputDir: ".data/test-results",
  // A test is a walk of several pages, sign-ins (a deliberate password hash each) and saves;
  // its timeout only catches a walk that hangs, and each step has its own bound below. On a
  // loaded two-core machine a walk of ten steps took 35 s, so 30 s failed green runs one test
  // at a time; 90 s is the floor, and the longest walks still set their own.
  timeout: 90_000,
  // Assertions wait up to 10 s, not 5: CI shares two cores among the app, PostgreSQL,
  // Redis and Chromium, and one render past 5 s failed a run that was otherwise green.
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  use: {
    // A click or a fill that cannot happen in 15 s, or a page that does not load in 30 s, is a
    // fault: it fails at the step that hung, not at the end of the test.
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
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
