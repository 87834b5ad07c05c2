import "server-only";
import { VALUES_PER_LIMIT, type DocumentFormat, type SourcePositions } from "@/lib/config/document";
import { checkDocument, DocumentRefused } from "@/lib/config/document/worker/check-document";
import { ValidationFailed } from "@/lib/data/errors";
import { readValidationContext } from "@/lib/data/validation-context";
import { env } from "@/lib/env";

// A document's text, bounded, parsed and validated once (in the document worker past a few
// KiB) before its import: what fails there never reaches the app's event loop. The import
// validates again inside its transaction, against the state it writes over.

export interface CheckedText {
  input: unknown;
  /** where each value is, to locate what the import's own checks find */
  positions: SourcePositions;
}

/** Throws DocumentRefused (a bound or the worker's budget: 413) or ValidationFailed (422). */
export async function checkedText(text: string, format: DocumentFormat): Promise<CheckedText> {
  const context = await readValidationContext();
  // a document holds no more values than the installation's limits can take (structure-limits.ts)
  const maxValues = env().SLUICE_MAX_LIMITS_TOTAL * VALUES_PER_LIMIT;
  const result = await checkDocument({ text, format, context, maxValues });
  if (result.ok) return { input: result.input, positions: result.positions };
  if (result.tooLarge !== undefined) throw new DocumentRefused(`The body is too large: ${result.tooLarge}.`);
  throw new ValidationFailed(result.errors);
}
