// Test helper: a validated document from YAML text or a fixture file, failing loudly.

import { readFileSync } from "node:fs";
import { join } from "node:path";

import { parseDocumentText, validateDocument, type ConfigDocument } from "@/lib/control/config/document";

export function documentFromYaml(text: string): ConfigDocument {
  const parsed = parseDocumentText(text, "yaml");
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const result = validateDocument(parsed.input);
  if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 2));
  return result.document;
}

export function fixtureDocument(name: string): ConfigDocument {
  return documentFromYaml(readFileSync(join(process.cwd(), "tests/fixtures/config", name), "utf8"));
}
