// Where a penalty cannot apply, reported at the declaration that first makes it so: a
// penalty keeps its block beside the limit's counter in the owner's key, which a sliding
// log does not use, and a local limit decides in memory, where no block would be shared.

import { PENALTY_ALGORITHMS } from "@/lib/shared/limit-types";

import type { DocumentError } from "./document-error";
import type { LimitDeclaration } from "./inheritance";
import { mergeLimitFields, type LimitFields } from "./normalize-limit";

function problem(fields: LimitFields): string | null {
  if (fields.penalty === undefined) return null;
  if (fields.algorithm !== undefined && !PENALTY_ALGORITHMS.includes(fields.algorithm))
    return `a penalty works with algorithm ${PENALTY_ALGORITHMS.join(", ")}, and this limit's algorithm is ${fields.algorithm}`;
  if (fields.consistency === "local")
    return "a penalty needs consistency exact (a local limit decides in memory, where a block would not be shared)";
  return null;
}

/** A penalty on a limit that cannot carry one. */
export function checkPenalty(chain: readonly LimitDeclaration[], index: number): DocumentError[] {
  const declaration = chain[index] as LimitDeclaration;
  const now = problem(mergeLimitFields(chain.slice(0, index + 1).map((d) => d.fields)));
  if (now === null) return [];
  if (index > 0 && problem(mergeLimitFields(chain.slice(0, index).map((d) => d.fields))) !== null) return [];
  const field =
    declaration.fields.penalty !== undefined
      ? "penalty"
      : declaration.fields.algorithm !== undefined
        ? "algorithm"
        : "consistency";
  return [{ path: `${declaration.path}.${field}`, message: now }];
}
