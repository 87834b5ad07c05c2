// Turns the text of an import (YAML or JSON, the same shape) into the plain value that
// validateDocument checks. Syntax errors come back in the same error shape, at path "",
// with the line so that the author can find them.

import { LineCounter, parseDocument } from "yaml";

import type { DocumentError } from "./document-error";
import { structureProblem } from "./structure-limits";

export type DocumentFormat = "yaml" | "json";

export type ParseTextResult = { ok: true; input: unknown } | { ok: false; errors: DocumentError[] };

// yaml keeps aliases cheap, but a document made of nested aliases can still expand
// enormously; no real config needs more than this.
const MAX_ALIAS_COUNT = 100;

function yamlMessage(code: string, message: string): string {
  if (code === "MULTIPLE_DOCS") return 'a config file holds one document; remove the "---" separator';
  // yaml appends " at line N, column M:" plus a source excerpt; we report the line ourselves.
  return message.replace(/ at line \d+, column \d+:[\s\S]*$/, "");
}

function parseYaml(text: string): ParseTextResult {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) {
    return {
      ok: false,
      errors: document.errors.map((error) => {
        const { line, col } = lineCounter.linePos(error.pos[0]);
        return {
          path: "",
          message: `line ${line}: ${yamlMessage(error.code, error.message)} (column ${col})`,
          line,
          column: col,
        };
      }),
    };
  }
  try {
    return { ok: true, input: document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (error) {
    return {
      ok: false,
      errors: [{ path: "", message: error instanceof Error ? error.message : String(error) }],
    };
  }
}

function lineOf(text: string, position: number): number {
  return text.slice(0, position).split("\n").length;
}

// V8 names a position for some JSON errors only ("Unexpected token '}', "..." is not valid
// JSON" has none); YAML reads JSON too, and its parser says where it stumbles.
function jsonErrorLine(text: string, message: string): number | null {
  const position = /at position (\d+)/.exec(message);
  if (position) return lineOf(text, Number(position[1]));
  const lineCounter = new LineCounter();
  const error = parseDocument(text, { lineCounter, prettyErrors: false }).errors[0];
  return error ? lineCounter.linePos(error.pos[0]).line : null;
}

function parseJson(text: string): ParseTextResult {
  try {
    return { ok: true, input: JSON.parse(text) as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const line = jsonErrorLine(text, message);
    const plain = message
      .replace(/ in JSON at position \d+.*$/, "")
      .replace(/, .*is not valid JSON$/s, "")
      .replace(/ \(line \d+ column \d+\)$/, "");
    return { ok: false, errors: [{ path: "", message: line === null ? plain : `line ${line}: ${plain}` }] };
  }
}

export function parseDocumentText(text: string, format: DocumentFormat): ParseTextResult {
  // bounded before parsing: a hostile nesting costs the parser seconds and a gigabyte
  const problem = structureProblem(text, format);
  if (problem !== null) return { ok: false, errors: [{ path: "", message: problem }] };
  return format === "yaml" ? parseYaml(text) : parseJson(text);
}
