// Takes the domain logic out of the data layer (docs/architecture.md): lib/control/data keeps
// the reads and writes (Prisma, its transactions, the counter store in Redis); input schemas,
// rights and import rules that are pure functions over plain data go to the control plane's
// feature folders, below the data layer, which calls them (.dependency-cruiser.cjs,
// "domain-below-data"; tests/unit/house/data-layer-files.test.ts).
//
// Re-runnable, like move-by-plane.mjs (run that first on a branch older than it): files still
// at an old path are moved (git mv), then every import, path string and comment that names an
// old path is rewritten, in lib/, app/, components/, server*.ts, proxy.ts, tests/, scripts/,
// packages/ and the docs. Files split in two kept their old path for the data half (the
// pure half is new), so imports of the data half need nothing; what a branch imports of a
// pure half from the old path fails typecheck and names the new file:
//   count-caps.ts       -> the caps stay in config/import/count-caps.ts; assertKeyCap in data/key-cap.ts
//   auth/token-authority.ts -> auth/policy/token-authority.ts; MAKER_SELECT, makerOf in data/auth/token-makers.ts
//   override-import-rules.ts: the clash and cap rule in overrides/override-clashes.ts
//   api-keys.ts, create-keys.ts: CreateKeyInput, NewKeyInput, MAX_KEYS_PER_REQUEST,
//     refineDistinctNames in keys/key-inputs.ts
//   change-locks.ts: ChangeScope, scopedSlugs in config/import/change-scope.ts
//   import-checks.ts: checkImposedOverrides in config/import/imposed-overrides.ts
//   limit-rows.ts: the mapping in config/import/limit-columns.ts (limit-rows.ts types it by Prisma)
//   node scripts/house/move-domain-out-of-data.mjs [--dry]
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
  // the errors the control plane throws and its callers map to answers: below every part of it
  "lib/control/data/errors.ts": "lib/control/errors/errors.ts",
  // an import's rules over plain documents and principals
  "lib/control/data/import-access.ts": "lib/control/config/import/import-access.ts",
  "lib/control/data/import-scope.ts": "lib/control/config/import/import-scope.ts",
  "lib/control/data/tenant-field-rights.ts": "lib/control/config/import/tenant-field-rights.ts",
  "lib/control/data/count-caps.ts": "lib/control/config/import/count-caps.ts",
  // one spelling of a document, over the limits' stored form (config/import/limit-columns.ts)
  "lib/control/data/canonical.ts": "lib/control/config/import/canonical.ts",
  "lib/control/data/bulk/limit-targets.ts": "lib/control/bulk/limit-targets.ts",
  // request bodies (zod) and the rules over them
  "lib/control/data/override-input.ts": "lib/control/overrides/override-input.ts",
  "lib/control/data/alerts/inputs.ts": "lib/control/alerts/input/inputs.ts",
  "lib/control/data/queries/audit-filter.ts": "lib/control/audit/audit-filter.ts",
  "lib/control/data/bulk/bulk-inputs.ts": "lib/control/bulk/bulk-inputs.ts",
  "lib/control/data/auth/passwords.ts": "lib/control/auth/policy/passwords.ts",
  "lib/control/data/auth/token-authority.ts": "lib/control/auth/policy/token-authority.ts",
};
const FOLDERS = {};
const FOLDER_KEYS = Object.keys(FOLDERS).sort((a, b) => b.length - a.length);

/** The new path of an old one (unchanged when no rule names it). */
export function mapPath(path) {
  // rules chain (lib/data/x.ts -> lib/control/data/x.ts -> lib/control/counters/x.ts), so a
  // branch still at the oldest path lands at the newest
  for (let step = 0; step < 4; step++) {
    const next = mapOnce(path);
    if (next === path) break;
    path = next;
  }
  return path;
}

function mapOnce(path) {
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
// the maps of both scripts name the old paths on purpose
const SELVES = new Set(["scripts/house/move-by-plane.mjs", "scripts/house/move-domain-out-of-data.mjs"]);
const files = [...topFiles, ...TOP.flatMap((dir) => walk(dir, []))].filter((file) => !SELVES.has(file));
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
