// Adds up every suite's results and prints "N passed, N failed" as the last line; the exit
// code is non-zero when anything failed or a suite left no report (it crashed).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2];
const rows = [];

for (const line of existsSync(join(dir, "checks.txt")) ? readFileSync(join(dir, "checks.txt"), "utf8").trim().split("\n") : []) {
  const [name, outcome] = line.split(" ");
  if (name) rows.push({ suite: name, passed: outcome === "pass" ? 1 : 0, failed: outcome === "pass" ? 0 : 1 });
}

function vitest(name) {
  const file = join(dir, `${name}.json`);
  if (!existsSync(file)) return rows.push({ suite: name, passed: 0, failed: 1, note: "no report (crashed?)" });
  const report = JSON.parse(readFileSync(file, "utf8"));
  // A file that failed to load has no test results but counts as a failure.
  const brokenFiles = report.testResults.filter((f) => f.status === "failed" && f.assertionResults.length === 0).length;
  rows.push({ suite: name, passed: report.numPassedTests, failed: report.numFailedTests + brokenFiles });
}

function playwright(name) {
  const file = join(dir, `${name}.json`);
  if (!existsSync(file)) return rows.push({ suite: name, passed: 0, failed: 1, note: "no report (crashed?)" });
  const { stats, errors = [] } = JSON.parse(readFileSync(file, "utf8"));
  rows.push({ suite: name, passed: stats.expected + stats.flaky, failed: stats.unexpected + errors.length });
}

vitest("unit");
vitest("integration");
if (!rows.some((r) => r.suite === "cluster-start")) vitest("cluster");
playwright("e2e");

console.log("\nsuite                 passed  failed");
for (const r of rows) console.log(`${r.suite.padEnd(20)} ${String(r.passed).padStart(7)} ${String(r.failed).padStart(7)} ${r.note ?? ""}`);
const passed = rows.reduce((n, r) => n + r.passed, 0);
const failed = rows.reduce((n, r) => n + r.failed, 0);
const empty = passed === 0;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || empty ? 1 : 0);
