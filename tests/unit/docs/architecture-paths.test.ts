// docs/architecture.md names files, folders and functions in code spans; when code moves or
// is renamed, this says which names the page still holds, so the map stays true.

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

const ROOT = process.cwd();
const page = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
const files: string[] = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "-z"], {
  cwd: ROOT,
  encoding: "utf8",
})
  .split("\0")
  .filter((file) => file !== "" && !file.startsWith("lib/generated/"));

const PATH = /^[\w.()[\]-]+(\/[\w.()[\]-]*)*$/;
const FILE = /\.(ts|tsx|mjs|lua|md|sh|yaml)$/;

/** Code spans that name a file or a folder (`lib/check/`, `front/connection.ts`, `lua/check.lua`). */
function pathsOf(markdown: string): string[] {
  const spans = [...markdown.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? "");
  return [...new Set(spans.filter((s) => PATH.test(s) && (FILE.test(s) || s.endsWith("/"))))];
}

/** A full path, or the end of one ("front/connection.ts" under lib/enforce/http/). */
function exists(path: string): boolean {
  if (path.endsWith("/")) return files.some((f) => f.startsWith(path) || f.includes(`/${path}`));
  return files.some((f) => f === path || f.endsWith(`/${path}`));
}

/** "`name` (`file`" and "`name` in `file`": the name a file is cited for, with the file. */
function citations(markdown: string): Array<[string, string]> {
  const cited = [...markdown.matchAll(/`([A-Za-z_][\w.]*)`,? (?:\(|in )`([^`\n]+\.(?:ts|tsx))`/g)];
  return cited.map((m) => [m[1] ?? "", m[2] ?? ""]);
}

describe("docs/architecture.md", () => {
  it("names files and folders that exist", () => {
    const paths = pathsOf(page);
    expect(paths.length).toBeGreaterThan(50);
    expect(paths.filter((path) => !exists(path))).toEqual([]);
  });

  it("cites functions and classes in the files that hold them", () => {
    const pairs = citations(page);
    expect(pairs.length).toBeGreaterThan(20);
    const missing = pairs.filter(([name, path]) => {
      const file = files.find((f) => f === path || f.endsWith(`/${path}`));
      if (file === undefined) return true;
      const text = readFileSync(join(ROOT, file), "utf8");
      return name.split(".").some((part) => !new RegExp(`\\b${part}\\b`).test(text));
    });
    expect(missing).toEqual([]);
  });
});
