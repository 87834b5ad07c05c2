// npm run bench:config: the configuration pipeline at 10, 1,000 and 10,000 tenants, measured
// from outside (HTTP, PostgreSQL sizes, /proc), so that it runs unchanged on any version of
// the pipeline. Per size: a fresh database, Redis and two servers; see docs/benchmarks.md.
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { z } from "zod";
import { stopAll, stopAllOnSignals } from "../processes";
import { failedSize, runSize, type SizeResult } from "./run-size";
import { table } from "./report";

const run = promisify(execFile);
const log = (text: string) => console.log(`[bench:config] ${new Date().toISOString().slice(11, 19)} ${text}`);

const Settings = z.object({
  BENCH_CONFIG_SIZES: z
    .string()
    .regex(/^\d+(,\d+)*$/, "BENCH_CONFIG_SIZES: must be tenant counts separated by commas, e.g. 10,1000")
    .default("10,1000,10000"),
  BENCH_CONFIG_CAP_S: z.coerce.number().int().min(10).max(3_600).default(300),
  BENCH_CONFIG_CHANGES: z.coerce.number().int().min(1).max(1_000).default(50),
  BENCH_CONFIG_CHECK_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
  DATABASE_URL: z.string().default("postgresql://postgres@127.0.0.1:54329/sluice"),
});

async function main(): Promise<void> {
  const settings = Settings.parse(process.env);
  const sizes = settings.BENCH_CONFIG_SIZES.split(",").map(Number);
  if (sizes.some((n) => n < 1)) throw new Error("BENCH_CONFIG_SIZES: every size must be at least 1 tenant");
  if (process.env.BENCH_SKIP_BUILD !== "1") {
    log("building the app if its sources changed");
    await run("bash", ["scripts/build-if-changed.sh"], { maxBuffer: 1 << 24 });
  }
  const commit = (await run("git", ["rev-parse", "--short", "HEAD"])).stdout.trim();
  const results: SizeResult[] = [];
  for (const tenants of sizes) {
    const started = performance.now();
    const options = {
      baseUrl: settings.DATABASE_URL,
      capMs: settings.BENCH_CONFIG_CAP_S * 1_000,
      changes: settings.BENCH_CONFIG_CHANGES,
      checkSeconds: settings.BENCH_CONFIG_CHECK_SECONDS,
      log,
    };
    // a size whose servers did not even start still gets its column, saying why
    results.push(await runSize(tenants, options).catch((error: unknown) => failedSize(tenants, error)));
    log(`${tenants} tenants done in ${Math.round((performance.now() - started) / 1_000)} s`);
  }
  const when = new Date().toISOString().slice(0, 16).replace(":", "-");
  const text = [
    `# bench:config ${when} (commit ${commit})`,
    "",
    `Sizes ${sizes.join(", ")} tenants (3 keys, 2 limits, 5 routes of 2 limits each a tenant); ` +
      `${settings.BENCH_CONFIG_CHANGES} changes, checks ${settings.BENCH_CONFIG_CHECK_SECONDS} s, ` +
      `steps cut at ${settings.BENCH_CONFIG_CAP_S} s.`,
    "",
    table(results),
    "",
  ].join("\n");
  console.log(`\n${text}`);
  mkdirSync(".data", { recursive: true });
  const file = `.data/bench-config-${when}.md`;
  writeFileSync(file, text);
  log(`written to ${file}`);
}

stopAllOnSignals();

try {
  await main();
} finally {
  await stopAll();
}
