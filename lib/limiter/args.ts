import "server-only";
import type { LimitRule } from "@/lib/shared/limit-types";
import type { LimitArgs } from "@/lib/limiter/types";
import { exactnessProblem, scaled } from "@/lib/shared/limit-exactness";

export { exactnessProblem };

// Shared by the algorithm files: checks a rule's numbers and builds its six script integers.
// The script does exact integer math in doubles, so its products must stay below 2^53.

export function limitArgs(code: number, rule: LimitRule): LimitArgs {
  const problem = exactnessProblem(rule);
  if (problem) throw new RangeError(problem);
  const { L, W, B, delay } = scaled(rule);
  return [code, L, W, B, rule.mode === "shadow" ? 1 : 0, delay];
}
