// Bounds on a document's structure, checked before it is parsed: the yaml package builds a
// node per token and recurses per level, so a 2 MiB body of a million "[" took 15 s and
// ~1 GB to parse, and a flat list of a million items 5 s. A config nests a handful of
// levels and holds a bounded number of values; anything past these bounds is refused
// with a sentence naming the problem, in time linear in the text (the JSON scan is a
// character loop; YAML goes through yaml's own lexer, which stops at the first excess).

import { Lexer } from "yaml";

/** Deepest nesting accepted (flow or block collections); real documents use about 6. */
export const MAX_DOCUMENT_DEPTH = 32;
/**
 * Values (scalars, map keys included, and collections) one limit can take: its map and its
 * 16 fields, each a key and a value. Limits are what a configuration is made of; tenants,
 * routes and keys only carry them.
 */
export const VALUES_PER_LIMIT = 33;
/**
 * Most values of a document: the installation's cap on limits in all (SLUICE_MAX_LIMITS_TOTAL,
 * 20,000 by default) with every field of every limit spelt out, 660,000. A document past it
 * cannot be a valid configuration, whatever else it holds; a million was room for 30,000
 * limits written out in full.
 */
export const MAX_DOCUMENT_VALUES = 20_000 * VALUES_PER_LIMIT;
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

const tooMany = (line: number, maxValues: number): string =>
  `line ${line}: the document has more than ${maxValues} values (scalars, keys and collections); split it`;

function yamlProblem(text: string, maxValues: number): string | null {
  let position = 0;
  let values = 0;
  let flow = 0;
  let lineStart = true;
  let indicators = 0;
  let scalarNext = false;
  for (const token of new Lexer().lex(text)) {
    const at = position;
    // control tokens (one character below 0x20 other than tab/newline) are not in the text
    const control = token.length === 1 && token < " " && token !== "\n" && token !== "\t";
    if (!control) position += token.length;
    if (scalarNext) {
      scalarNext = false;
      lineStart = false;
      continue;
    }
    // a scalar (plain, quoted), a flow collection or a block sequence item: each a node
    const first = token[0];
    const value =
      token === SCALAR ||
      first === '"' ||
      first === "'" ||
      token === "[" ||
      token === "{" ||
      (flow === 0 && token === "-");
    if (value && ++values > maxValues) return tooMany(lineAt(text, at), maxValues);
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

// A value starts after "[", "{", ",", ":" or at the start; anything else (a number's next
// digit, whitespace) continues or separates.
const STARTS_VALUE = new Set([-1, 44, 58, 91, 123]);

function jsonProblem(text: string, maxValues: number): string | null {
  let depth = 0;
  let values = 0;
  let inString = false;
  let previous = -1; // the last character outside strings that is not whitespace
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) {
        inString = false;
        previous = c;
      }
      continue;
    }
    if (c === 32 || c === 10 || c === 13 || c === 9) continue;
    const starts =
      c === 34 ||
      c === 91 ||
      c === 123 ||
      (c !== 44 && c !== 58 && c !== 93 && c !== 125 && STARTS_VALUE.has(previous));
    if (starts && ++values > maxValues) return tooMany(lineAt(text, i), maxValues);
    previous = c;
    if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > MAX_DOCUMENT_DEPTH) return tooDeep(lineAt(text, i));
    } else if (c === 93 || c === 125) depth = Math.max(0, depth - 1);
  }
  return null;
}

/** The first structural bound the text exceeds, as a sentence; null when within them all. */
export function structureProblem(
  text: string,
  format: "yaml" | "json",
  maxValues: number = MAX_DOCUMENT_VALUES,
): string | null {
  return format === "yaml" ? yamlProblem(text, maxValues) : jsonProblem(text, maxValues);
}
