// Adds up every suite's results and prints "N passed, N failed" as the last line, with each
// suite's wall time above it; the exit code is non-zero when anything failed or a suite left
// no report (it crashed).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2];
const rows = [];
/** each failed test, named again just above the table: a log's tail then says what failed */
const failures = [];
const firstLine = (text) =>
  String(text ?? "")
    .split("\n")
    .find((l) => l.trim() !== "")
    ?.trim()
    .slice(0, 200) ?? "";

for (const line of existsSync(join(dir, "checks.txt"))
  ? readFileSync(join(dir, "checks.txt"), "utf8").trim().split("\n")
  : []) {
  const [name, outcome] = line.split(" ");
  if (name)
    rows.push({ suite: name, passed: outcome === "pass" ? 1 : 0, failed: outcome === "pass" ? 0 : 1 });
}

function vitest(name) {
  const file = join(dir, `${name}.json`);
  if (!existsSync(file))
    return rows.push({ suite: name, passed: 0, failed: 1, note: "no report (crashed?)" });
  const report = JSON.parse(readFileSync(file, "utf8"));
  // A file that failed to load, or whose beforeAll failed (its tests then show as skipped),
  // has no failed test but counts as a failure.
  const broken = report.testResults.filter(
    (f) => f.status === "failed" && !f.assertionResults.some((a) => a.status === "failed"),
  );
  rows.push({ suite: name, passed: report.numPassedTests, failed: report.numFailedTests + broken.length });
  const relative = (f) => f.name.replace(`${process.cwd()}/`, "");
  for (const f of report.testResults)
    for (const a of f.assertionResults)
      if (a.status === "failed")
        failures.push(`${name}: ${relative(f)} > ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
  for (const f of broken) failures.push(`${name}: ${relative(f)}: ${firstLine(f.message)}`);
}

/** Playwright's suites nest; a spec's results carry its errors. */
function playwrightFailures(name, suites) {
  for (const suite of suites ?? []) {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? [])
        if (t.status === "unexpected") {
          const error = t.results?.find((r) => r.error)?.error?.message;
          failures.push(`${name}: ${spec.file}:${spec.line} > ${spec.title}: ${firstLine(error)}`);
        }
    playwrightFailures(name, suite.suites);
  }
}

function playwright(name) {
  const file = join(dir, `${name}.json`);
  if (!existsSync(file))
    return rows.push({ suite: name, passed: 0, failed: 1, note: "no report (crashed?)" });
  const { stats, errors = [], suites } = JSON.parse(readFileSync(file, "utf8"));
  playwrightFailures(name, suites);
  for (const e of errors) failures.push(`${name}: ${firstLine(e.message)}`);
  rows.push({ suite: name, passed: stats.expected + stats.flaky, failed: stats.unexpected + errors.length });
}

// run-suites.sh names each suite it starts in expected.txt (name and runner), so a subset run
// counts only what it ran, and a started suite that left no report counts as crashed.
const expectedFile = join(dir, "expected.txt");
const expected = existsSync(expectedFile)
  ? readFileSync(expectedFile, "utf8").trim().split("\n").filter(Boolean)
  : [];
// A full run (no SLUICE_TEST_SUITES) must have the standard suites whatever happened.
if (!process.env.SLUICE_TEST_SUITES) {
  const standard = [
    "unit vitest",
    "integration vitest",
    "cluster vitest",
    "reliability vitest",
    "deploys vitest",
    "e2e playwright",
  ];
  for (const s of standard) {
    const skipCluster = s.startsWith("cluster") && rows.some((r) => r.suite === "cluster-start");
    if (!skipCluster && !expected.includes(s)) expected.push(s);
  }
}
for (const line of expected) {
  const [name, runner] = line.split(" ");
  if (runner === "playwright") playwright(name);
  else vitest(name);
}

if (failures.length > 0) {
  console.log("\nfailed:");
  for (const f of failures) console.log(`  ${f.replace(/\x1b\[[0-9;]*m/g, "")}`);
}
console.log("\nsuite                 passed  failed");
for (const r of rows)
  console.log(
    `${r.suite.padEnd(20)} ${String(r.passed).padStart(7)} ${String(r.failed).padStart(7)} ${r.note ?? ""}`,
  );
// Each suite's wall time (run-suites.sh writes "name start_ms end_ms" as each one ends).
const timesFile = join(dir, "times.txt");
const times = existsSync(timesFile) ? readFileSync(timesFile, "utf8").trim().split("\n").filter(Boolean) : [];
if (times.length > 0) console.log("\nsuite                 wall time");
for (const line of times) {
  const [name = "", start, end] = line.split(" ");
  const seconds = Math.round((Number(end) - Number(start)) / 1000);
  const wall =
    seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, "0")}s`;
  console.log(`${name.padEnd(20)} ${wall.padStart(10)}`);
}
const passed = rows.reduce((n, r) => n + r.passed, 0);
const failed = rows.reduce((n, r) => n + r.failed, 0);
const empty = passed === 0;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || empty ? 1 : 0);
