// Bad configs as fixtures with their exact errors (envoyproxy/ratelimit style): each
// tests/fixtures/config/bad/<name>.yaml sits next to <name>.errors.json, the complete list
// of { path, message } that importing it must answer.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { parseDocumentText, validateDocument, type DocumentError } from "@/lib/control/config/document";

const dir = join(process.cwd(), "tests/fixtures/config/bad");
const fixtures = readdirSync(dir)
  .filter((file) => file.endsWith(".yaml"))
  .sort();

function errorsOf(text: string): DocumentError[] {
  const parsed = parseDocumentText(text, "yaml");
  if (!parsed.ok) return parsed.errors;
  const result = validateDocument(parsed.input);
  return result.ok ? [] : result.errors;
}

describe("bad config fixtures", () => {
  it("has a fixture for every rule (at least 15) and an error list for each", () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(15);
    for (const file of fixtures) {
      expect(readdirSync(dir)).toContain(file.replace(/\.yaml$/, ".errors.json"));
    }
  });

  it.each(fixtures)("%s answers exactly its expected errors", (file) => {
    const expected = JSON.parse(
      readFileSync(join(dir, file.replace(/\.yaml$/, ".errors.json")), "utf8"),
    ) as DocumentError[];
    expect(expected.length).toBeGreaterThan(0);
    expect(errorsOf(readFileSync(join(dir, file), "utf8"))).toEqual(expected);
  });
});
