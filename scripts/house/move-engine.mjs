// The engine behind the house move scripts (move-by-plane.mjs, move-domain-out-of-data.mjs):
// each passes its own map of old paths to new ones. Files still at an old path are moved
// (git mv), then every import, path string and comment that names an old path is rewritten, in
// lib/, app/, components/, server*.ts, proxy.ts, tests/, scripts/, packages/ and the docs.
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
// the maps of the move scripts name the old paths on purpose: never rewrite them
const SELVES = new Set([
  "scripts/house/move-by-plane.mjs",
  "scripts/house/move-domain-out-of-data.mjs",
  "scripts/house/move-engine.mjs",
]);
const SOURCE = /\.(ts|tsx|mts|mjs|cjs|js|md|sh|json|lua|yml|yaml)$/;
const SKIP = new Set(["node_modules", ".next", ".data", "generated", "dist", "test-results", ".git"]);
const TOP = ["lib", "app", "components", "tests", "scripts", "packages", "docs", "prisma", "lua"];
const VARIANTS = ["", ".ts", ".tsx", ".mjs", ".js", "/index.ts", "/index.tsx"];

const git = (...args) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" });
const isFile = (path) => existsSync(join(ROOT, path)) && statSync(join(ROOT, path)).isFile();

/**
 * A path mapper over exact files (they win over folders) and folders ("/" at the end, longest
 * first): the new path of an old one, unchanged when no rule names it.
 */
export function pathMapper(files, folders) {
  const folderKeys = Object.keys(folders).sort((a, b) => b.length - a.length);
  const mapOnce = (path) => {
    if (files[path]) return files[path];
    for (const from of folderKeys) if (path.startsWith(from)) return folders[from] + path.slice(from.length);
    return path;
  };
  return (path) => {
    // rules chain (lib/data/x.ts -> lib/control/data/x.ts -> lib/control/counters/x.ts), so a
    // branch still at the oldest path lands at the newest
    for (let step = 0; step < 4; step++) {
      const next = mapOnce(path);
      if (next === path) break;
      path = next;
    }
    return path;
  };
}

/** Moves and rewrites by mapPath; with dry, only prints the moves it would make. */
export function runMoves(mapPath, { dry }) {
  const moved = moveFiles(mapPath, dry);
  if (dry) return;
  pruneEmpty("lib");
  const changed = rewriteAll(mapPath, moved);
  console.log(`moved ${moved.size} files, rewrote ${changed}`);
}

// 1. Moves: every tracked file whose path maps elsewhere and is still at its old path.
// Returns new path -> old path, for relative imports written against the old place.
function moveFiles(mapPath, dry) {
  const tracked = git("ls-files", "lib").split("\n").filter(Boolean);
  const moved = new Map();
  for (const old of tracked) {
    const next = mapPath(old);
    if (next === old || !isFile(old)) continue;
    if (isFile(next)) throw new Error(`both ${old} and ${next} exist: resolve by hand`);
    moved.set(next, old);
    if (dry) {
      console.log(`${old} -> ${next}`);
      continue;
    }
    mkdirSync(dirname(join(ROOT, next)), { recursive: true });
    git("mv", old, next);
  }
  return moved;
}

// folders the moves emptied go, so that a mention of one is read as the folder it became
function pruneEmpty(dir) {
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = posix.join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory() && !SKIP.has(name)) pruneEmpty(path);
  }
  if (dir !== "lib" && readdirSync(join(ROOT, dir)).length === 0) rmdirSync(join(ROOT, dir));
}

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

function resolvesHere(path) {
  return VARIANTS.some((suffix) => isFile(path + suffix));
}

// 2. Rewrites: import specifiers (alias and relative) and path mentions in text.
function rewriteAll(mapPath, moved) {
  /** The new form of a path named in old terms (a file, with or without extension, or an index folder). */
  const renamed = (path) => {
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
  };

  const rewriteRelative = (file, spec) => {
    const here = dirname(file);
    if (resolvesHere(posix.join(here, spec))) return spec;
    const oldHere = dirname(moved.get(file) ?? file);
    const target = posix.normalize(posix.join(oldHere, spec));
    const next = renamed(target) ?? (resolvesHere(target) ? target : null);
    if (!next) return spec;
    let rel = relative(here, next).split("\\").join("/");
    if (!rel.startsWith(".")) rel = "./" + rel;
    return rel;
  };

  const topFiles = readdirSync(ROOT).filter(
    (name) => isFile(name) && SOURCE.test(name) && name !== "package-lock.json",
  );
  const files = [...topFiles, ...TOP.flatMap((dir) => walk(dir, []))].filter((file) => !SELVES.has(file));
  let changed = 0;
  for (const file of files) {
    const before = readFileSync(join(ROOT, file), "utf8");
    let text = before;
    // relative specifiers in code
    if (/\.(ts|tsx|mts|mjs|js)$/.test(file)) {
      text = text.replace(
        /((?:from|import|import\(|require\(|mock\()\s*["'])(\.\.?\/[^"']+)(["'])/g,
        (_, a, spec, z) => a + rewriteRelative(file, spec) + z,
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
  return changed;
}
