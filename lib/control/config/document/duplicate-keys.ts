// Duplicate map keys, found with one set per map: the yaml package's own check compares
// every key with every other, and a map of 60,000 keys took two minutes.

import { isMap, isScalar, isSeq, type Document, type LineCounter } from "yaml";
import type { DocumentError } from "./document-error";

export function duplicateKeyErrors(document: Document, lineCounter: LineCounter): DocumentError[] {
  const errors: DocumentError[] = [];
  const walk = (node: unknown): void => {
    if (isSeq(node)) for (const item of node.items) walk(item);
    else if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : JSON.stringify(pair.key);
        if (seen.has(key)) {
          const start = isScalar(pair.key) ? pair.key.range?.[0] : undefined;
          const { line, col } = lineCounter.linePos(start ?? 0);
          errors.push({
            path: "",
            message: `line ${line}: Map keys must be unique (column ${col})`,
            line,
            column: col,
          });
        }
        seen.add(key);
        walk(pair.value);
      }
    }
  };
  walk(document.contents);
  return errors;
}
