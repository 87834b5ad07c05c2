// Where an error of the server points in the user's file: the server names a path
// (`tenants[0].routes[3].limits[0].limit`); we find that node in the YAML (or JSON) text
// and give its line and column. A path to a field the file does not have (e.g. a missing
// `window`) points at the nearest enclosing node that exists.
import { isMap, isNode, isSeq, LineCounter, parseDocument, type Document, type Node } from "yaml";

export type PathSegment = string | number;

export interface Position {
  line: number;
  col: number;
}

/** `tenants[0].limits[1].window` -> ["tenants", 0, "limits", 1, "window"]. */
export function parsePath(path: string): PathSegment[] {
  const out: PathSegment[] = [];
  const pattern = /([^.[\]]+)|\[(\d+)\]/g;
  for (const match of path.matchAll(pattern)) {
    if (match[2] !== undefined) out.push(Number(match[2]));
    else if (match[1] !== undefined) out.push(match[1]);
  }
  return out;
}

export class YamlLocator {
  private readonly lineCounter = new LineCounter();
  private readonly document: Document;

  constructor(text: string) {
    this.document = parseDocument(text, { lineCounter: this.lineCounter, prettyErrors: false });
  }

  /** Syntax errors of the text itself, with their positions. */
  syntaxErrors(): { position: Position; message: string }[] {
    return this.document.errors.map((error) => ({
      position: this.lineCounter.linePos(error.pos[0]),
      message: error.message.replace(/ at line \d+, column \d+:[\s\S]*$/, ""),
    }));
  }

  /** The position of the node at `path`, or of its nearest existing ancestor; null for "". */
  locate(path: string): Position | null {
    const segments = parsePath(path);
    if (segments.length === 0) return null;
    let node: unknown = this.document.contents;
    let found: Node | null = null;
    for (const segment of segments) {
      const next = child(node, segment);
      if (next === undefined) break;
      node = next;
      if (isNode(next)) found = next;
    }
    const start = found?.range?.[0];
    return start === undefined ? null : this.lineCounter.linePos(start);
  }
}

function child(node: unknown, segment: PathSegment): unknown {
  if (isSeq(node) && typeof segment === "number") return node.items[segment] ?? undefined;
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = isNode(pair.key) ? (pair.key as { toJSON(): unknown }).toJSON() : pair.key;
      if (String(key) === String(segment)) return pair.value ?? pair.key;
    }
  }
  return undefined;
}
