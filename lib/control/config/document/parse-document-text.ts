// Turns the text of an import (YAML or JSON, the same shape) into the plain value that
// validateDocument checks, and the table of where each value is (source-positions.ts), both
// from one parse. Syntax errors come back in the same error shape, at path "", with the
// line so that the author can find them.

import { LineCounter, parseDocument } from "yaml";

import type { DocumentError } from "./document-error";
import { duplicateKeyErrors } from "./duplicate-keys";
import { jsonOffsets } from "./json-positions";
import { lineColumns, yamlPositions, type SourcePositions } from "./source-positions";
import { MAX_DOCUMENT_VALUES, structureProblem } from "./structure-limits";

export type DocumentFormat = "yaml" | "json";

export type ParseTextResult = { ok: true; input: unknown } | { ok: false; errors: DocumentError[] };

export type ParsedText =
  | { ok: true; input: unknown; positions: SourcePositions }
  | { ok: false; errors: DocumentError[]; tooLarge?: string };

// yaml keeps aliases cheap, but a document made of nested aliases can still expand
// enormously; no real config needs more than this.
const MAX_ALIAS_COUNT = 100;

function yamlMessage(code: string, message: string): string {
  if (code === "MULTIPLE_DOCS") return 'a config file holds one document; remove the "---" separator';
  // yaml appends " at line N, column M:" plus a source excerpt; we report the line ourselves.
  return message.replace(/ at line \d+, column \d+:[\s\S]*$/, "");
}

function parseYaml(text: string): ParsedText {
  const lineCounter = new LineCounter();
  // yaml's own uniqueKeys compares each key with every other: 60,000 keys took two minutes
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  const errors: DocumentError[] = document.errors.map((error) => {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    return {
      path: "",
      message: `line ${line}: ${yamlMessage(error.code, error.message)} (column ${col})`,
      line,
      column: col,
    };
  });
  errors.push(...duplicateKeyErrors(document, lineCounter));
  if (errors.length > 0) return { ok: false, errors };
  try {
    const input: unknown = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    return { ok: true, input, positions: yamlPositions(document, lineCounter) };
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

// V8 names a position for some errors only; the others quote ten characters either side of
// it ("Unexpected token '}', ..."enants": [}" is not valid JSON"), which is found in the text.
function errorPosition(text: string, message: string): number | null {
  const position = /at position (\d+)/.exec(message);
  if (position) return Number(position[1]);
  const quoted = /, (\.\.\.)?"([\s\S]*?)"(\.\.\.)? is not valid JSON$/.exec(message);
  const excerpt = quoted?.[2];
  if (!excerpt) return null;
  const start = text.indexOf(excerpt);
  if (start < 0) return null;
  if (quoted[1]) return start + 10;
  const token = /^Unexpected token '(.)'/.exec(message)?.[1];
  return token ? start + Math.max(0, excerpt.indexOf(token)) : start;
}

function parseJson(text: string): ParsedText {
  let input: unknown;
  try {
    input = JSON.parse(text) as unknown;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = errorPosition(text, message);
    const plain = message
      .replace(/ in JSON at position \d+.*$/, "")
      .replace(/, .*is not valid JSON$/s, "")
      .replace(/ \(line \d+ column \d+\)$/, "");
    const at = position === null ? "" : `line ${lineOf(text, position)}: `;
    return { ok: false, errors: [{ path: "", message: `${at}${plain}` }] };
  }
  return { ok: true, input, positions: lineColumns(text, jsonOffsets(text)) };
}

/** Bounded, then parsed once: the value and where each of its parts is. */
export function parseText(text: string, format: DocumentFormat, maxValues = MAX_DOCUMENT_VALUES): ParsedText {
  // bounded before parsing: a hostile nesting costs the parser seconds and a gigabyte
  const problem = structureProblem(text, format, maxValues);
  if (problem !== null) return { ok: false, errors: [{ path: "", message: problem }], tooLarge: problem };
  return format === "yaml" ? parseYaml(text) : parseJson(text);
}

export function parseDocumentText(text: string, format: DocumentFormat): ParseTextResult {
  const parsed = parseText(text, format);
  return parsed.ok ? { ok: true, input: parsed.input } : { ok: false, errors: parsed.errors };
}
