// The envoy file as YAML nodes with their lines: the converter reads fields through these
// so every report line can say where in the file it comes from.
import {
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  type Node,
  type YAMLMap,
  type YAMLSeq,
} from "yaml";

export interface ReportLine {
  /** 1-based line in the envoy file */
  line: number;
  message: string;
}

export class EnvoySource {
  private readonly lines = new LineCounter();
  readonly root: unknown;
  readonly syntaxErrors: ReportLine[];

  constructor(text: string) {
    const document = parseDocument(text, { lineCounter: this.lines, prettyErrors: false, uniqueKeys: true });
    this.root = document.contents;
    this.syntaxErrors = document.errors.map((error) => ({
      line: this.lines.linePos(error.pos[0]).line,
      message: `not YAML: ${error.message.replace(/ at line \d+, column \d+:[\s\S]*$/, "")}`,
    }));
  }

  /** The line a node starts on (1 when the node has no position). */
  lineOf(node: unknown): number {
    const start = (node as Node | undefined)?.range?.[0];
    return start === undefined ? 1 : this.lines.linePos(start).line;
  }
}

export function asMap(node: unknown): YAMLMap | null {
  return isMap(node) ? node : null;
}

export function asSeq(node: unknown): YAMLSeq | null {
  return isSeq(node) ? node : null;
}

/** The fields of a map in order, each with its key's node (for the line) and its value node. */
export function fields(map: YAMLMap): { name: string; keyNode: unknown; value: unknown }[] {
  return map.items.map((pair) => ({
    name: isScalar(pair.key) ? String(pair.key.value) : String(pair.key),
    keyNode: pair.key,
    value: pair.value,
  }));
}

/**
 * A scalar as envoy's Go YAML reads it into a string field: the text as written for numbers
 * (`value: 1.0` stays "1.0"), null when the node is not a scalar.
 */
export function scalarText(node: unknown): string | null {
  if (!isScalar(node)) return null;
  if (typeof node.value === "string") return node.value;
  if (node.value === null) return null;
  return node.source ?? String(node.value);
}

export function scalarValue(node: unknown): unknown {
  return isScalar(node) ? node.value : undefined;
}
