import "server-only";
import {
  VALUES_PER_LIMIT,
  type ConfigDocument,
  type DocumentFormat,
  type SourcePositions,
  type ValidationContext,
} from "@/lib/control/config/document";
import {
  checkDocument,
  DocumentRefused,
  MEMBER_BUDGET,
  type WorkerBudget,
} from "@/lib/control/config/document/worker/check-document";
import { ValidationFailed } from "@/lib/control/errors/errors";
import { readValidationContext } from "@/lib/control/data/validation-context";
import { env } from "@/lib/shared/env";

// A document's text, bounded, parsed and validated once (in the document worker past a few
// KiB) before its import: what fails there never reaches the app's event loop. The import
// takes the validated document as it is when the plans and routes it was validated against
// are still those it writes over, and validates again only when they changed.

export interface CheckedText {
  input: unknown;
  /** where each value is, to locate what the import's own checks find */
  positions: SourcePositions;
  /** the document as validated, and what against */
  checked: CheckedDocument;
}

export interface CheckedDocument {
  document: ConfigDocument;
  against: ValidationContext;
}

/** Throws DocumentRefused (a bound or the worker's budget: 413) or ValidationFailed (422). */
export async function checkedText(
  text: string,
  format: DocumentFormat,
  budget: WorkerBudget = MEMBER_BUDGET,
): Promise<CheckedText> {
  const context = await readValidationContext();
  // a document holds no more values than the installation's limits can take (structure-limits.ts)
  const maxValues = env().SLUICE_MAX_LIMITS_TOTAL * VALUES_PER_LIMIT;
  const result = await checkDocument({ text, format, context, maxValues }, budget);
  if (result.ok) {
    const checked = { document: result.document, against: context };
    return { input: result.input, positions: result.positions, checked };
  }
  if (result.tooLarge !== undefined) throw new DocumentRefused(`The body is too large: ${result.tooLarge}.`);
  throw new ValidationFailed(result.errors, result.total);
}
