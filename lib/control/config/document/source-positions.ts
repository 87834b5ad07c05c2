// Where each value of a document is in its text, taken from the one parse that read it: the
// yaml package's node ranges, or the JSON scan (JSON.parse keeps no positions). Errors are
// located from this table, so the text is never parsed again to point at them. Paths
// deeper than a configuration goes are left out; their errors point at the nearest
// ancestor that is in the table, as `sluice config` does.

import { isMap, isNode, isScalar, isSeq, type Document, type LineCounter } from "yaml";
import { childPath, type DocumentError } from "./document-error";

/** Segments of the deepest path recorded: tenants[0].routes[1].limits[2].window has 7. */
export const MAX_POSITION_DEPTH = 8;

/** Path to [line, column] (1-based); plain data, so it crosses to and from a worker. */
export type SourcePositions = Map<string, [number, number]>;

/** Offsets to lines and columns, in one pass over the text's line starts. */
export function lineColumns(text: string, offsets: Map<string, number>): SourcePositions {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  const out: SourcePositions = new Map();
  for (const [path, offset] of offsets) {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    out.set(path, [low + 1, offset - (starts[low] ?? 0) + 1]);
  }
  return out;
}

/** The offsets of a parsed YAML document's nodes (a key without a value: the key's). */
export function yamlPositions(document: Document, lineCounter: LineCounter): SourcePositions {
  const out: SourcePositions = new Map();
  const walk = (node: unknown, path: string, depth: number): void => {
    if (depth > MAX_POSITION_DEPTH) return;
    if (isNode(node) && node.range && path !== "") {
      const { line, col } = lineCounter.linePos(node.range[0]);
      out.set(path, [line, col]);
    }
    if (isSeq(node)) node.items.forEach((item, index) => walk(item, childPath(path, index), depth + 1));
    else if (isMap(node)) {
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        walk(pair.value ?? pair.key, childPath(path, key), depth + 1);
      }
    }
  };
  walk(document.contents, "", 0);
  return out;
}

const LAST_SEGMENT = /(\.[^.[\]]+|\[\d+\])$|^[^.[\]]+$/;

/** Syntax errors name their place in the message ("line 3: ... (column 7)"). */
function syntaxPosition(message: string): [number, number] | null {
  const line = /^line (\d+)/.exec(message);
  if (!line) return null;
  const column = /\(column (\d+)\)$/.exec(message);
  return [Number(line[1]), column ? Number(column[1]) : 1];
}

/** The errors with line and column added from the table (nearest recorded ancestor). */
export function locateErrors(errors: readonly DocumentError[], positions: SourcePositions): DocumentError[] {
  return errors.map((error) => {
    if (error.line !== undefined) return error;
    const syntax = error.path === "" ? syntaxPosition(error.message) : null;
    if (syntax) return { ...error, line: syntax[0], column: syntax[1] };
    for (let path = error.path; path !== ""; path = path.replace(LAST_SEGMENT, "")) {
      const found = positions.get(path);
      if (found) return { ...error, line: found[0], column: found[1] };
      if (!LAST_SEGMENT.test(path)) break;
    }
    return error;
  });
}
