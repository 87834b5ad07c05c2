// Bounds on a document's structure, checked before it is parsed: the yaml package builds a
// node per token and recurses per level, so a 2 MiB body of a million "[" took 15 s and
// ~1 GB to parse, and a flat list of a million items 5 s. A config nests a handful of
// levels and holds well under a million tokens; anything past these bounds is refused
// with a sentence naming the problem, in time linear in the text (the JSON scan is a
// character loop; YAML goes through yaml's own lexer, which stops at the first excess).

import { Lexer } from "yaml";

/** Deepest nesting accepted (flow or block collections); real documents use about 6. */
export const MAX_DOCUMENT_DEPTH = 32;
/** Tokens (scalars, indicators, spaces) of a YAML document: about 2 MiB of dense config. */
export const MAX_DOCUMENT_TOKENS = 1_000_000;
/** Indentation of a block line: deeper block nesting needs ever more indentation. */
export const MAX_BLOCK_INDENT = 128;

const SCALAR = "\x1f"; // yaml's lexer announces a scalar's source with this token

function lineAt(text: string, position: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < position; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

const tooDeep = (line: number): string =>
  `line ${line}: the document nests deeper than ${MAX_DOCUMENT_DEPTH} levels`;

function yamlProblem(text: string): string | null {
  let position = 0;
  let tokens = 0;
  let flow = 0;
  let lineStart = true;
  let indicators = 0;
  let scalarNext = false;
  for (const token of new Lexer().lex(text)) {
    if (++tokens > MAX_DOCUMENT_TOKENS) {
      return `line ${lineAt(text, position)}: the document has more than ${MAX_DOCUMENT_TOKENS} tokens; split it`;
    }
    const at = position;
    // control tokens (one character below 0x20 other than tab/newline) are not in the text
    const control = token.length === 1 && token < " " && token !== "\n" && token !== "\t";
    if (!control) position += token.length;
    if (scalarNext) {
      scalarNext = false;
      lineStart = false;
      continue;
    }
    if (token === SCALAR) {
      scalarNext = true;
      continue;
    }
    if (control) continue;
    if (token === "[" || token === "{") {
      if (++flow > MAX_DOCUMENT_DEPTH) return tooDeep(lineAt(text, at));
    } else if (token === "]" || token === "}") {
      flow = Math.max(0, flow - 1);
    } else if (token === "\n" || token === "\r\n") {
      lineStart = true;
      indicators = 0;
      continue;
    } else if (flow === 0 && (token === "-" || token === "?" || token === ":")) {
      // "- - - x" nests one block level per indicator on a single line
      if (++indicators > MAX_DOCUMENT_DEPTH) return tooDeep(lineAt(text, at));
    } else if (lineStart && flow === 0 && /^[ \t]+$/.test(token) && token.length > MAX_BLOCK_INDENT) {
      return `line ${lineAt(text, at)}: a line is indented more than ${MAX_BLOCK_INDENT} columns`;
    }
    lineStart = false;
  }
  return null;
}

function jsonProblem(text: string): string | null {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > MAX_DOCUMENT_DEPTH) return tooDeep(lineAt(text, i));
    } else if (c === 93 || c === 125) depth = Math.max(0, depth - 1);
  }
  return null;
}

/** The first structural bound the text exceeds, as a sentence; null when within them all. */
export function structureProblem(text: string, format: "yaml" | "json"): string | null {
  return format === "yaml" ? yamlProblem(text) : jsonProblem(text);
}
