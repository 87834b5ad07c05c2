// The error shape of validation and import (docs/api.md: `{ path, message }`), and the path
// spelling of docs/configuration.md: `tenants[0].limits[1].window`.

export interface DocumentError {
  /** "" for the document as a whole (e.g. a YAML syntax error) */
  path: string;
  message: string;
  /** where in the document text it is (1-based), when the error came from a text */
  line?: number;
  column?: number;
}

export type PathPart = string | number;

export function formatPath(parts: readonly PathPart[]): string {
  let out = "";
  for (const part of parts) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? part : `.${part}`;
  }
  return out;
}

/** Appends a field (or index) to an already formatted path. */
export function childPath(path: string, part: PathPart): string {
  if (typeof part === "number") return `${path}[${part}]`;
  return path === "" ? part : `${path}.${part}`;
}

/** Stable order (by position in the document text, roughly) and no repeats. */
export function dedupeErrors(errors: readonly DocumentError[]): DocumentError[] {
  const seen = new Set<string>();
  const out: DocumentError[] = [];
  for (const error of errors) {
    const key = `${error.path}\u0000${error.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(error);
  }
  return out;
}
