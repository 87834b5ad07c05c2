// A document's text checked as a whole: bounded, parsed once, validated against the current
// plans and routes, every error located from that one parse. Pure and synchronous: it runs
// in the document worker (lib/config/document/worker/) for any body over a few KiB, inline
// for small ones, with the same result.

import type { DocumentError } from "./document-error";
import type { ConfigDocument } from "./document-schema";
import { parseText, type DocumentFormat } from "./parse-document-text";
import { locateErrors, type SourcePositions } from "./source-positions";
import { validateDocument, type ValidationContext } from "./validate-document";

/**
 * Errors a refused document is answered with, the first by path; the rest are counted. One
 * error per unknown key let 720 KB of YAML come back as 8.9 MB of JSON, built, compressed
 * and written on the app's event loop while other tenants' requests waited.
 */
export const MAX_LISTED_ERRORS = 200;

export interface TextCheck {
  text: string;
  format: DocumentFormat;
  context: ValidationContext;
  /** the bound on values (structure-limits.ts), derived from the installation's caps */
  maxValues: number;
}

export type TextCheckResult =
  /**
   * valid against `context`: the document as validated (the import takes it without a second
   * validation while the plans and routes are unchanged); the positions locate what the
   * import's own checks still find
   */
  | { ok: true; input: unknown; document: ConfigDocument; positions: SourcePositions }
  /** a structure past its bounds: `tooLarge` names it (413); `total`: errors found in all */
  | { ok: false; errors: DocumentError[]; total: number; tooLarge?: string };

function refused(errors: DocumentError[], tooLarge?: string): TextCheckResult {
  const listed = errors.slice(0, MAX_LISTED_ERRORS);
  return { ok: false, errors: listed, total: errors.length, ...(tooLarge === undefined ? {} : { tooLarge }) };
}

export function checkText(check: TextCheck): TextCheckResult {
  const parsed = parseText(check.text, check.format, check.maxValues);
  if (!parsed.ok) return refused(locateErrors(parsed.errors, new Map()), parsed.tooLarge);
  const valid = validateDocument(parsed.input, check.context);
  if (!valid.ok) return refused(locateErrors(valid.errors, parsed.positions));
  return { ok: true, input: parsed.input, document: valid.document, positions: parsed.positions };
}
