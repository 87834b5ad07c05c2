// Line and column of every document error in the text it came from. The position logic is
// the CLI's own (packages/client/src/cli/yaml-locate.ts: it has no dependency but `yaml`),
// so the dashboard, the admin API and `sluice config` point at the same place.
import { YamlLocator } from "@/packages/client/src/cli/yaml-locate";
import type { DocumentError } from "./document-error";

/** The errors with `line` and `column` (1-based) added where the path or syntax error has one. */
export function locateErrors(text: string, errors: readonly DocumentError[]): DocumentError[] {
  const locator = new YamlLocator(text);
  return errors.map((error) => {
    if (error.line !== undefined) return error;
    const position = error.path === "" ? syntaxPosition(error.message) : locator.locate(error.path);
    return position ? { ...error, line: position.line, column: position.col } : error;
  });
}

/** Syntax errors name their place in the message ("line 3: ... (column 7)"). */
function syntaxPosition(message: string): { line: number; col: number } | null {
  const line = /^line (\d+)/.exec(message);
  if (!line) return null;
  const column = /\(column (\d+)\)$/.exec(message);
  return { line: Number(line[1]), col: column ? Number(column[1]) : 1 };
}
