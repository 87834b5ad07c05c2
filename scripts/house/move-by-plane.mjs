// Lays lib/ out by plane (docs/architecture.md, README "Architecture"): lib/shared (kernel),
// lib/check (the check path), lib/usage (recording, storage, reads), lib/control (the
// control plane, data access in lib/control/data), lib/server (the processes).
//
// Re-runnable: files still at an old path are moved (git mv), then every import, path string
// and comment that names an old path is rewritten, in lib/, app/, components/, server*.ts,
// proxy.ts, tests/, scripts/, packages/ and the docs. A second run after a merge that brought
// files or imports at old paths moves and rewrites just those.
//   node scripts/house/move-by-plane.mjs [--dry]
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, posix, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const DRY = process.argv.includes("--dry");

/** Exact files first (they win over folders), then folders ("/" at the end), longest first. */
const FILES = {
  "lib/env.ts": "lib/shared/env.ts",
  "lib/redis.ts": "lib/shared/redis/redis.ts",
  "lib/shared/redis-keys.ts": "lib/shared/redis/redis-keys.ts",
  "lib/limiter/lua-files.ts": "lib/shared/redis/lua-files.ts",
  "lib/limiter/ioredis-scripts.ts": "lib/shared/redis/ioredis-scripts.ts",
  "lib/limiter/script-client.ts": "lib/shared/redis/script-client.ts",
  "lib/metrics/registry.ts": "lib/shared/metrics-registry.ts",
  "lib/metrics/check-metrics.ts": "lib/check/check-metrics.ts",
  "lib/metrics/process-metrics.ts": "lib/check/process-metrics.ts",
  "lib/enforce/http/answer.ts": "lib/check/answer.ts",
  // who asks and what they may do, hashing: the check path, data layer and usage reads use them
  "lib/auth/secrets.ts": "lib/shared/secrets.ts",
  "lib/auth/principal.ts": "lib/shared/principal.ts",
  "lib/auth/password.ts": "lib/shared/password.ts",
  "lib/http/malformed-path.ts": "lib/control/api/malformed-path.ts",
  // the published configuration: what the control plane writes and the check path reads
  "lib/config/published.ts": "lib/check/published/published.ts",
  "lib/config/compile/snapshot-types.ts": "lib/check/published/snapshot-types.ts",
  "lib/config/compile/apply-overrides.ts": "lib/check/published/apply-overrides.ts",
  "lib/config/compile/effective-limits.ts": "lib/check/published/effective-limits.ts",
  "lib/config/document/service-limit-schema.ts": "lib/check/published/service-limit-schema.ts",
  "lib/config/parts/index.ts": "lib/check/published/parts.ts",
  // heals Redis from PostgreSQL: it reads the data layer, so it sits there
  "lib/config/reconcile.ts": "lib/control/data/reconcile.ts",
  // webhook address and payload guards, used by the alerts data layer and the sender
  "lib/alerts/redaction.ts": "lib/control/alerts/guard/redaction.ts",
  "lib/alerts/url-guard.ts": "lib/control/alerts/guard/url-guard.ts",
  "lib/alerts/address-policy.ts": "lib/control/alerts/guard/address-policy.ts",
  "lib/alerts/ipv6-words.ts": "lib/control/alerts/guard/ipv6-words.ts",
  // usage: recording (the front), storage (rollups), reads (dashboard, API)
  "lib/usage/recorder.ts": "lib/usage/record/recorder.ts",
  "lib/usage/batch.ts": "lib/usage/record/batch.ts",
  "lib/usage/flush.ts": "lib/usage/record/flush.ts",
  "lib/usage/decision-sink.ts": "lib/usage/record/decision-sink.ts",
  "lib/usage/credential-use.ts": "lib/usage/record/credential-use.ts",
  "lib/usage/tenant-memory.ts": "lib/usage/record/tenant-memory.ts",
  "lib/usage/tenant-memory-scan.ts": "lib/usage/record/tenant-memory-scan.ts",
  "lib/usage/rollup.ts": "lib/usage/store/rollup.ts",
  "lib/usage/redis-read.ts": "lib/usage/store/redis-read.ts",
  "lib/usage/last-used-job.ts": "lib/usage/store/last-used-job.ts",
  "lib/usage/jobs.ts": "lib/usage/store/jobs.ts",
  "lib/usage/api-series.ts": "lib/usage/read/api-series.ts",
  "lib/usage/context.ts": "lib/usage/read/context.ts",
  "lib/usage/custom-window.ts": "lib/usage/read/custom-window.ts",
  "lib/usage/dashboard-types.ts": "lib/usage/read/dashboard-types.ts",
  "lib/usage/dashboard.ts": "lib/usage/read/dashboard.ts",
  "lib/usage/key-traffic.ts": "lib/usage/read/key-traffic.ts",
  // the limits usage can measure, read from the published version: data access
  "lib/usage/limit-candidates.ts": "lib/control/data/usage/limit-candidates.ts",
  "lib/usage/limit-lines.ts": "lib/usage/read/limit-lines.ts",
  "lib/usage/most-limited-types.ts": "lib/usage/read/most-limited-types.ts",
  "lib/usage/most-limited.ts": "lib/usage/read/most-limited.ts",
  "lib/usage/offenders.ts": "lib/usage/read/offenders.ts",
  "lib/usage/query.ts": "lib/usage/read/query.ts",
  "lib/usage/scoped-reader.ts": "lib/usage/read/scoped-reader.ts",
  "lib/usage/summary.ts": "lib/usage/read/summary.ts",
  "lib/usage/utilization.ts": "lib/usage/read/utilization.ts",
  // domain logic out of the data layer (usage reads, the limit tree)
  "lib/data/usage/rows.ts": "lib/usage/read/rows.ts",
  "lib/data/limit-tree.ts": "lib/control/limit-tree/limit-tree.ts",
  "lib/data/limit-tree-counters.ts": "lib/control/limit-tree/limit-tree-counters.ts",
  // an operator's tool over Redis and PostgreSQL: above the data layer
  "lib/data/identifier-lookup.ts": "lib/control/ops/identifier-lookup.ts",
};
const FOLDERS = {
  "lib/enforce/": "lib/check/",
  "lib/limiter/": "lib/check/limiter/",
  "lib/config/parts/": "lib/check/published/",
  "lib/config/routes/": "lib/check/routes/",
  "lib/config/": "lib/control/config/",
  "lib/http/": "lib/shared/http/",
  "lib/data/": "lib/control/data/",
  "lib/auth/": "lib/control/auth/",
  "lib/api/": "lib/control/api/",
  "lib/openapi/": "lib/control/openapi/",
  "lib/alerts/": "lib/control/alerts/",
  "lib/replay/": "lib/control/replay/",
  "lib/limit-tree/": "lib/control/limit-tree/",
};
const FOLDER_KEYS = Object.keys(FOLDERS).sort((a, b) => b.length - a.length);

/** The new path of an old one (unchanged when no rule names it). */
export function mapPath(path) {
  if (FILES[path]) return FILES[path];
  for (const from of FOLDER_KEYS) if (path.startsWith(from)) return FOLDERS[from] + path.slice(from.length);
  return path;
}

const git = (...args) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" });
const isFile = (path) => existsSync(join(ROOT, path)) && statSync(join(ROOT, path)).isFile();

// 1. Moves: every tracked file whose path maps elsewhere and is still at its old path.
const tracked = git("ls-files", "lib").split("\n").filter(Boolean);
const moved = new Map(); // new path -> old path, for relative imports written against the old place
for (const old of tracked) {
  const next = mapPath(old);
  if (next === old || !isFile(old)) continue;
  if (isFile(next)) throw new Error(`both ${old} and ${next} exist: resolve by hand`);
  moved.set(next, old);
  if (DRY) {
    console.log(`${old} -> ${next}`);
    continue;
  }
  mkdirSync(dirname(join(ROOT, next)), { recursive: true });
  git("mv", old, next);
}
if (DRY) process.exit(0);

// 2. Rewrites: import specifiers (alias and relative) and path mentions in text.
const SOURCE = /\.(ts|tsx|mts|mjs|cjs|js|md|sh|json|lua|yml|yaml)$/;
const SKIP = new Set(["node_modules", ".next", ".data", "generated", "dist", "test-results", ".git"]);
const TOP = ["lib", "app", "components", "tests", "scripts", "packages", "docs", "prisma", "lua"];
// folders the moves emptied go, so that a mention of one is read as the folder it became
function pruneEmpty(dir) {
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = posix.join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory() && !SKIP.has(name)) pruneEmpty(path);
  }
  if (dir !== "lib" && readdirSync(join(ROOT, dir)).length === 0) rmdirSync(join(ROOT, dir));
}
pruneEmpty("lib");
const topFiles = readdirSync(ROOT).filter(
  (name) => isFile(name) && SOURCE.test(name) && name !== "package-lock.json",
);

function walk(dir, out) {
  if (!existsSync(join(ROOT, dir))) return out;
  for (const name of readdirSync(join(ROOT, dir))) {
    if (SKIP.has(name)) continue;
    const path = posix.join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) walk(path, out);
    else if (SOURCE.test(name)) out.push(path);
  }
  return out;
}

const VARIANTS = ["", ".ts", ".tsx", ".mjs", ".js", "/index.ts", "/index.tsx"];

/** The new form of a path named in old terms (a file, with or without extension, or an index folder). */
function renamed(path) {
  for (const suffix of VARIANTS) {
    const full = path + suffix;
    const next = mapPath(full);
    if (next === full || !isFile(next)) continue;
    if (suffix === "") return next;
    if (suffix.startsWith("/index.")) {
      // a folder's index that became a file of its own (parts/index.ts -> parts.ts)
      return next.endsWith("/" + suffix.slice(1))
        ? next.slice(0, -suffix.length)
        : next.replace(/\.tsx?$/, "");
    }
    return next.slice(0, -suffix.length);
  }
  // a folder named in prose: where a folder rule sent it, when that folder exists
  const folder = mapPath(path + "/");
  if (folder !== path + "/" && existsSync(join(ROOT, folder)) && !existsSync(join(ROOT, path)))
    return folder.slice(0, -1);
  return null;
}

function resolvesHere(path) {
  return VARIANTS.some((suffix) => isFile(path + suffix));
}

function rewriteRelative(file, spec) {
  const here = dirname(file);
  if (resolvesHere(posix.join(here, spec))) return spec;
  const oldHere = dirname(moved.get(file) ?? file);
  const target = posix.normalize(posix.join(oldHere, spec));
  const next = renamed(target) ?? (resolvesHere(target) ? target : null);
  if (!next) return spec;
  let rel = relative(here, next).split("\\").join("/");
  if (!rel.startsWith(".")) rel = "./" + rel;
  return rel;
}

let changed = 0;
const SELF = "scripts/house/move-by-plane.mjs"; // its map names the old paths on purpose
const files = [...topFiles, ...TOP.flatMap((dir) => walk(dir, []))].filter((file) => file !== SELF);
for (const file of files) {
  const before = readFileSync(join(ROOT, file), "utf8");
  let text = before;
  // relative specifiers in code
  if (/\.(ts|tsx|mts|mjs|js)$/.test(file)) {
    text = text.replace(
      /((?:from|import|import\(|require\(|mock\()\s*["'])(\.\.?\/[^"']+)(["'])/g,
      (_, a, spec, z) => {
        return a + rewriteRelative(file, spec) + z;
      },
    );
  }
  // "@/lib/..." specifiers and "lib/..." mentions anywhere (imports, build scripts, comments, docs)
  text = text.replace(
    /(^|[^A-Za-z0-9_./-])(@\/)?(lib\/[A-Za-z0-9_./()[\]-]*[A-Za-z0-9_)\]])/g,
    (whole, lead, alias, path) => {
      const next = renamed(path);
      return next ? lead + (alias ?? "") + next : whole;
    },
  );
  if (text !== before) {
    writeFileSync(join(ROOT, file), text);
    changed++;
  }
}
console.log(`moved ${moved.size} files, rewrote ${changed}`);
