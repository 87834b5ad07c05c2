// The documentation stays whole: every relative link of README.md and docs/*.md reaches a
// file of the repository (and, with a #fragment into a Markdown page, one of its headings),
// and no file of the project points at the contract outside the repository any more.

import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";

import { describe, expect, it } from "vitest";

const ROOT = process.cwd();
const pages = ["README.md", ...readdirSync(join(ROOT, "docs")).map((f) => `docs/${f}`)].filter((p) =>
  p.endsWith(".md"),
);

/** [text](target) links outside code; absolute URLs and mail are not ours to check. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  const targets = [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? "");
  return targets.filter((t) => t !== "" && !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as "-". */
function anchors(markdown: string): Set<string> {
  const prose = markdown.replace(/```[\s\S]*?```/g, "");
  const headings = [...prose.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => m[1] ?? "");
  return new Set(
    headings.map((h) =>
      h
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, "")
        .replace(/\s/g, "-"),
    ),
  );
}

/** Files of the project: tracked ones, or on a copy without git, the tree minus what is built. */
function projectFiles(): string[] {
  try {
    return execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" })
      .split("\0")
      .filter((f) => f !== "" && existsSync(join(ROOT, f)));
  } catch {
    const skip = new Set(["node_modules", ".git", ".next", ".data", "generated"]);
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        if (skip.has(name)) return [];
        const path = join(dir, name);
        return statSync(path).isDirectory() ? walk(path) : [relative(ROOT, path)];
      });
    return walk(ROOT);
  }
}

describe("documentation links", () => {
  it("finds the pages and their links (the test can see what it checks)", () => {
    expect(pages).toEqual(expect.arrayContaining(["README.md", "docs/README.md", "docs/api.md"]));
    expect(relativeLinks(readFileSync(join(ROOT, "docs/README.md"), "utf8")).length).toBeGreaterThan(5);
  });

  it.each(pages)("every relative link of %s reaches a file (and a heading)", (page) => {
    const text = readFileSync(join(ROOT, page), "utf8");
    const broken = relativeLinks(text).filter((link) => {
      const [path = "", fragment] = link.split("#");
      const target = path === "" ? join(ROOT, page) : join(ROOT, dirname(page), decodeURI(path));
      if (!existsSync(target)) return true;
      if (fragment === undefined || !target.endsWith(".md")) return false;
      return !anchors(readFileSync(target, "utf8")).has(fragment);
    });
    expect(broken).toEqual([]);
  });
});

describe("no reference outside the repository", () => {
  // Split so that this file does not name it itself.
  const needle = ["shared", "spec"].join("/");
  // An applied migration is never edited: its checksum is recorded in every database that
  // ran it, and Prisma reports an edited one as drift. Its comments stay as written.
  const appliedMigration = /^prisma\/migrations\/\d+_[^/]+\/migration\.sql$/;

  it(`no project file mentions ${needle}`, () => {
    const files = projectFiles();
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.filter((file) => {
      if (file.startsWith("node_modules/") || appliedMigration.test(file)) return false;
      const content = readFileSync(join(ROOT, file));
      return content.includes(needle);
    });
    expect(offenders).toEqual([]);
  });
});
